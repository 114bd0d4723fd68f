package dev.ncclbench.gate;

import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.output.JUnitXml;
import dev.ncclbench.output.JUnitXml.TestCase;
import dev.ncclbench.output.JUnitXml.TestSuite;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** JUnit XML: one test case per collective and size (and one per curve-check error), so CI systems list them. */
public final class GateJunit {
    private GateJunit() {
    }

    public static String render(GateReport r) {
        return JUnitXml.render("ncclbench gate", List.of(suite(r)));
    }

    /** The gate's suite: one case per collective and size in the run, one per curve-check error; preflight's too. */
    public static TestSuite suite(GateReport r) {
        String changed = String.join("\n", r.changes().stream().map(Fingerprint.Change::text).toList());
        List<String> nccl = r.ncclChoiceLines();
        String decided = nccl.isEmpty() ? "" : "\nwhat NCCL decided differently from the baseline:\n"
                + String.join("\n", nccl);
        List<TestCase> cases = new ArrayList<>();
        if (r.verdict() == GateReport.Verdict.NOTHING_TO_COMPARE) {
            // no size case fails by itself: without this one a CI page would show every case green
            cases.add(TestCase.failed("ncclbench.gate", "compared sizes", "nothing_to_compare", r.verdictLine(),
                    r.verdictLine()));
        }
        List<SizeResult> failing = r.failing();
        for (SizeResult s : sizes(r)) {
            String detail = detail(s);
            String classname = "ncclbench.gate." + s.key().collective();
            cases.add(!failing.contains(s) ? TestCase.passed(classname, s.key().label(), detail, "")
                    : TestCase.failed(classname, s.key().label(), s.status().name().toLowerCase(Locale.ROOT),
                            s.key().label() + ": " + detail,
                            detail + (changed.isEmpty() ? "\nnothing changed in the fingerprint"
                                    : "\nwhat changed since the baseline:\n" + changed) + decided));
        }
        for (Finding f : curveErrors(r)) {
            cases.add(TestCase.failed("ncclbench.gate.curve", f.ruleId(), "degraded", f.title(),
                    f.detail() + "\n" + String.join("\n", f.evidence())));
        }
        return new TestSuite("ncclbench gate " + (r.baselineName() == null ? "(curve check)" : r.baselineName()),
                Instant.ofEpochSecond(r.timestamp()).toString(), cases);
    }

    private static List<Finding> curveErrors(GateReport r) {
        return r.curve().stream().filter(f -> f.severity() == Severity.ERROR).toList();
    }

    private static List<SizeResult> sizes(GateReport r) {
        return r.sizes().stream().filter(s -> r.requireAllSizes() || s.status() != SizeResult.Status.MISSING).toList();
    }

    private static String detail(SizeResult s) {
        Comparison c = s.comparison();
        String values = s.metric() + " " + GateText.value(s, s.baselineValue()) + " -> " + GateText.value(s, s.runValue())
                + " (judged on " + s.statistic() + "; table " + GateText.us(s.runTableUs()) + ")";
        if (c == null) {
            return s.status().label + ": " + values;
        }
        if (c.tableOnly()) {
            return String.format(Locale.ROOT, "%s: %s (%s), tolerance %s%s", s.status().label, values,
                    Double.isFinite(s.change()) ? GateText.signedPct(s.change()) : "-", GateOptions.pct(s.tolerance()),
                    c.baselineGroups() < 2 ? ", no noise estimate" : ", run-to-run noise ±" + GateOptions.pct(c.noise()));
        }
        return String.format(Locale.ROOT, "%s: %s (%s), noise ±%s, tolerance %s, p %s, ratio CI [%.3f, %.3f]%s",
                s.status().label, values, Double.isFinite(s.change()) ? GateText.signedPct(s.change()) : "-",
                GateOptions.pct(c.noise()), GateOptions.pct(s.tolerance()), GateText.p(c.pSlower()), c.ciLow(),
                c.ciHigh(), s.basePath().equals(s.runPath()) || s.runPath().isEmpty() ? ""
                        : "; path " + s.basePath() + " -> " + s.runPath());
    }
}
