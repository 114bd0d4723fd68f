package dev.ncclbench.preflight;

import dev.ncclbench.ExitCode;
import dev.ncclbench.doctor.rules.DoctorRules;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.gate.SizeResult;

import java.util.ArrayList;
import java.util.List;

/**
 * The one verdict of a preflight, from what its steps said: doctor, the sweep, the gate. Pure: the command runs
 * the steps, this decides.
 */
public final class Preflight {
    private Preflight() {
    }

    /** The sweep's exit code and, when it did not pass, its one-line reason (a failure's, or the degraded path's). */
    public record Sweep(int exitCode, String reason) {
    }

    /**
     * What the gate decided, in the terms the verdict needs.
     *
     * @param line         the gate's verdict line; with no baseline to compare, what preflight says of it: "no
     *                     baseline compared: ..." (a preflight on a fresh node passes on its other checks)
     * @param regressed    sizes that regressed
     * @param degradedPath sizes whose path verdict is worse than the baseline's
     * @param curveErrors  the curve check's ERROR rule ids
     */
    public record GateStep(GateReport.Verdict verdict, String line, int regressed, int degradedPath,
                           List<String> curveErrors) {
        public GateStep {
            curveErrors = List.copyOf(curveErrors);
        }

        /** The gate's line names the first thing NCCL decided differently from the baseline, when it failed. */
        public static GateStep of(GateReport r) {
            String line = r.verdict() == GateReport.Verdict.NO_BASELINE
                    ? "no baseline compared: " + r.noBaseline().text()
                    + "; the curve check found nothing that degrades the path"
                    : r.verdictLine();
            boolean failed = r.verdict() == GateReport.Verdict.REGRESSION || r.verdict() == GateReport.Verdict.DEGRADED;
            if (failed && r.ncclChoices() != null && r.ncclChoices().first().isPresent()) {
                line += "; " + r.ncclChoices().first().get().headline();
            }
            return new GateStep(r.verdict(), line,
                    (int) r.sizes().stream().filter(s -> s.status() == SizeResult.Status.REGRESSION).count(),
                    (int) r.sizes().stream().filter(s -> s.status() == SizeResult.Status.DEGRADED_PATH).count(),
                    r.curve().stream().filter(f -> f.severity() == Severity.ERROR).map(Finding::ruleId).toList());
        }
    }

    /**
     * One thing that keeps the verdict from PASS.
     *
     * @param brief the short form, when another reason is the one the line names: "the gate: 2 sizes regressed"
     */
    public record Reason(String word, ExitCode exitCode, String text, String brief) {
    }

    /** PASS, DEGRADED or FAIL, the reason, the exit code (0, 6, or the failure's 2-5) and every reason found. */
    public record Verdict(String word, String reason, ExitCode exitCode, List<Reason> reasons) {
        public Verdict {
            reasons = List.copyOf(reasons);
        }

        public String line() {
            return word + ": " + reason;
        }
    }

    /** The doctor ERROR findings that fail the preflight: those whose rule does not only degrade the path. */
    public static List<Finding> doctorFailures(List<Finding> findings) {
        return findings.stream().filter(f -> f.severity() == Severity.ERROR && !degrades(f)).toList();
    }

    /**
     * Whether a doctor failure skips the sweep. In a single-process run (world size 1, however many thread ranks)
     * it does: the environment is not ready and a minute of sweeping would only fail less clearly. With peers it
     * does not: each rank runs preflight on its own host, and a rank that stays away strands the others at the
     * rendezvous until the join timeout, where they would report a hang instead of this host's finding. So this
     * rank joins the sweep (which fails fast on every rank if the environment really cannot carry it) and reports
     * FAIL with the doctor's reason afterwards.
     */
    public static boolean skipSweep(List<Finding> doctorFindings, int worldSize) {
        return doctorFindings != null && worldSize == 1 && !doctorFailures(doctorFindings).isEmpty();
    }

    /**
     * FAIL of any step over DEGRADED over PASS; among reasons of the same weight the first step's (doctor, the
     * sweep, the gate) is named, and the line says how many more there are.
     * <ul>
     *   <li>doctor: an ERROR finding of a path-degrading rule is DEGRADED with its title as the reason; any other
     *       ERROR finding is FAIL (exit 3, environment not ready); warnings and info do not count.</li>
     *   <li>the sweep: its exit 2-5 is FAIL with that code; its exit 6 (NCCL's log showed a degraded path) is
     *       DEGRADED.</li>
     *   <li>the gate: a regression, a degraded path or a curve-check error is DEGRADED. No baseline to compare
     *       with is no failure: preflight has always been the check of a fresh node (doctor, the sweep, the path
     *       verdict, the curve check), so it passes on those, and its line says first that nothing was compared
     *       (never "PASS: ... within tolerance"). `ncclbench gate` on the result file is the comparison that
     *       insists on a baseline (exit 7).</li>
     * </ul>
     *
     * @param doctor the doctor's findings, null when --no-doctor
     * @param sweep  null when the sweep did not run (see {@link #skipSweep})
     * @param gate   null when the gate did not run (not rank 0, or the sweep failed)
     */
    public static Verdict decide(List<Finding> doctor, Sweep sweep, GateStep gate) {
        List<Reason> reasons = new ArrayList<>();
        if (doctor != null) {
            for (Finding f : doctor) {
                if (f.severity() != Severity.ERROR) {
                    continue;
                }
                if (degrades(f)) {
                    reasons.add(new Reason("DEGRADED", ExitCode.DEGRADED, f.title(), "doctor " + f.ruleId()));
                } else {
                    String fix = f.remedy().isEmpty() ? "" : "; fix: " + f.remedy().get(0);
                    reasons.add(new Reason("FAIL", ExitCode.ENVIRONMENT, "doctor " + f.ruleId() + ": " + f.title() + fix
                            + (sweep == null ? "; the sweep did not run" : ""), "doctor " + f.ruleId()));
                }
            }
        }
        if (sweep != null) {
            sweepReason(sweep).ifPresent(reasons::add);
        }
        if (gate != null && gate.verdict() == GateReport.Verdict.NOTHING_TO_COMPARE) {
            reasons.add(new Reason("FAIL", ExitCode.USAGE, gate.line(), "the gate: nothing to compare"));
        } else if (gate != null && gate.verdict() != GateReport.Verdict.PASS
                && gate.verdict() != GateReport.Verdict.NO_BASELINE) {
            reasons.add(new Reason("DEGRADED", ExitCode.DEGRADED, gate.line(), "the gate: " + gateBrief(gate)));
        }
        Reason worst = reasons.stream().filter(r -> r.word().equals("FAIL")).findFirst()
                .orElse(reasons.isEmpty() ? null : reasons.get(0));
        if (worst == null) {
            return new Verdict("PASS", passReason(doctor, sweep, gate), ExitCode.OK, reasons);
        }
        List<Reason> others = reasons.stream().filter(r -> r != worst).toList();
        String more = others.isEmpty() ? ""
                : others.size() == 1 ? " (and " + others.get(0).brief() + ")"
                : " (and " + others.size() + " more: " + String.join("; ", others.stream().map(Reason::brief).toList()) + ")";
        return new Verdict(worst.word(), worst.text() + more, worst.exitCode(), reasons);
    }

    private static java.util.Optional<Reason> sweepReason(Sweep sweep) {
        int code = sweep.exitCode();
        if (code == ExitCode.OK.code) {
            return java.util.Optional.empty();
        }
        if (code == ExitCode.DEGRADED.code) {
            return java.util.Optional.of(new Reason("DEGRADED", ExitCode.DEGRADED,
                    sweep.reason() == null ? "the path verdict is degraded" : sweep.reason(),
                    "the sweep's path verdict: degraded"));
        }
        ExitCode c = switch (code) {
            case 3 -> ExitCode.ENVIRONMENT;
            case 5 -> ExitCode.TIMEOUT;
            case 2 -> ExitCode.USAGE;
            default -> ExitCode.RUN_FAILED;
        };
        String what = "the sweep " + (c == ExitCode.USAGE ? "was refused" : "failed") + " (exit " + code + ")";
        return java.util.Optional.of(new Reason("FAIL", c, what + (sweep.reason() == null ? "" : ": " + sweep.reason()), what));
    }

    private static String gateBrief(GateStep g) {
        List<String> parts = new ArrayList<>();
        if (g.regressed() > 0) {
            parts.add(g.regressed() + (g.regressed() == 1 ? " size regressed" : " sizes regressed"));
        }
        if (g.degradedPath() > 0) {
            parts.add("a worse path at " + g.degradedPath() + (g.degradedPath() == 1 ? " size" : " sizes"));
        }
        if (!g.curveErrors().isEmpty()) {
            parts.add("the curve check's " + String.join(", ", g.curveErrors()));
        }
        return parts.isEmpty() ? g.verdict().name().toLowerCase(java.util.Locale.ROOT) : String.join(", ", parts);
    }

    private static String passReason(List<Finding> doctor, Sweep sweep, GateStep gate) {
        String head = gate != null ? gate.line().replaceFirst("^PASS: ", "")
                : sweep != null ? "the sweep ran on this rank; rank 0 judges the results"
                : "doctor found nothing that fails this host";
        if (doctor == null) {
            return head;
        }
        long warnings = doctor.stream().filter(f -> f.severity() == Severity.WARNING).count();
        return head + (warnings == 0 ? "; doctor: no errors or warnings"
                : "; doctor: " + warnings + (warnings == 1 ? " warning" : " warnings"));
    }

    private static boolean degrades(Finding f) {
        return DoctorRules.book().degrades(List.of(f));
    }
}
