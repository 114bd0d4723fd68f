package dev.ncclbench.preflight;

import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.output.Verdicts;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * Everything one preflight found, for every output format.
 *
 * @param host    the host doctor judged (null with --no-doctor)
 * @param doctor  doctor's findings, worst first; null with --no-doctor
 * @param ignored the doctor rules left out (--doctor-ignore)
 * @param sweep   null when the sweep did not run
 * @param gate    null when the gate did not run (not rank 0, the sweep failed or did not run)
 */
public record PreflightReport(String host, List<Finding> doctor, List<String> ignored, Preflight.Sweep sweep,
                              GateReport gate, Preflight.Verdict verdict) implements Verdicts {

    /** Nothing: doctor's findings, the sweep's table and the gate's went out as the steps ran. */
    @Override
    public void text(PrintWriter out) {
    }

    @Override
    public String json() {
        return PreflightJson.render(this);
    }

    /** doctor's findings beside the gate's. */
    @Override
    public String junit() {
        return PreflightJunit.render(this);
    }

    @Override
    public String markdown() {
        return PreflightMarkdown.render(this);
    }

    /** The gate's, when it ran. */
    @Override
    public String prometheus() {
        return gate == null ? null : gate.prometheus();
    }
    public PreflightReport {
        doctor = doctor == null ? null : List.copyOf(doctor);
        ignored = List.copyOf(ignored);
    }

    /** Decides the verdict from the steps' results. */
    public static PreflightReport of(String host, List<Finding> doctor, List<String> ignored, Preflight.Sweep sweep,
                                     GateReport gate) {
        return new PreflightReport(host, doctor, ignored, sweep, gate,
                Preflight.decide(doctor, sweep, gate == null ? null : Preflight.GateStep.of(gate)));
    }

    /** doctor's findings, one line each (as doctor --compare prints them), before the sweep. */
    public static void printDoctor(String host, List<Finding> findings, PrintWriter out) {
        long errors = findings.stream().filter(f -> f.severity() == Severity.ERROR).count();
        long warnings = findings.stream().filter(f -> f.severity() == Severity.WARNING).count();
        out.printf(Locale.ROOT, "# doctor: %s: %d error%s, %d warning%s%n", host, errors, errors == 1 ? "" : "s",
                warnings, warnings == 1 ? "" : "s");
        for (Finding f : findings) {
            out.printf("  %-7s %-24s %s%n", severity(f), f.ruleId(), f.title());
        }
        out.flush();
    }

    static String severity(Finding f) {
        return f.severity() == Severity.WARNING ? "WARN" : f.severity().name();
    }
}
