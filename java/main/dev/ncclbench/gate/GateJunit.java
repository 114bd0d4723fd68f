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
        if (r.noBaseline() != null) {
            // nothing was compared: a CI page must not show the sizes' cases green and nothing else
            cases.add(TestCase.skipped("ncclbench.gate", "baseline", "no baseline: " + r.noBaseline().text()));
        }
        List<SizeResult> failing = r.failing();
        for (SizeResult s : sizes(r)) {
            String detail = detail(s);
            String classname = "ncclbench.gate." + s.key().collective();
            boolean unjudged = s.status() == SizeResult.Status.TOO_NOISY
                    || s.status() == SizeResult.Status.UNCOMPARED;
            cases.add(unjudged ? TestCase.skipped(classname, s.key().label(), detail)
                    : !failing.contains(s) ? TestCase.passed(classname, s.key().label(), detail, "")
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

    /** The row in words: the same cells as the table ({@link GateRow}), named. */
    private static String detail(SizeResult s) {
        GateRow row = GateRow.of(s);
        String values = row.judged() + " " + row.baseline() + " -> " + row.run() + " (judged on " + s.statistic()
                + "; run table " + row.runTable() + ")";
        Statistics c = s.comparison();
        if (c == null) {
            return row.verdict() + ": " + values;
        }
        return row.verdict() + ": " + values + " (" + row.change()
                + (row.interval().equals("-") ? "" : ", 95% interval " + row.interval()) + ")"
                + (row.noise().equals("none") ? ", no noise estimate" : ", noise " + row.noise())
                + ", tolerance " + GateOptions.pct(s.tolerance()) + (row.p().equals("-") ? "" : ", p " + row.p());
    }
}
