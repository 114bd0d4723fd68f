package dev.ncclbench.gate;

import dev.ncclbench.ExitCode;
import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.choices.Comparison;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.output.Verdicts;

import java.util.List;

/**
 * Everything one gate decided, for every output format.
 *
 * @param baselineName null when the gate compared with no baseline: none matched ({@code noBaseline}) or the curve
 *                     check alone was asked for (--curve-only)
 * @param exactMatch   whether every fingerprint field matched
 * @param changes      what differs between the baseline's fingerprint and the run's
 * @param curve        the curve check's findings (no baseline needed)
 * @param timestamp    when the gate ran, seconds since the epoch
 * @param requireAllSizes a size in one side only fails (--require-all-sizes)
 * @param partialStatus the run's status when it did not finish and was judged on its measured sizes, else null
 * @param ncclChoices  what NCCL decided differently from the baseline's runs (unknown where a side kept no log);
 *                     null without a baseline
 * @param noBaseline   where the gate looked for a baseline and found none (the verdict NO_BASELINE); null when it
 *                     compared with one, or was asked for the curve check alone
 */
public record GateReport(String runFile, String baselineName, String baselineFile, int baselineRuns,
                         boolean exactMatch, Fingerprint runFingerprint, List<Fingerprint.Change> changes,
                         List<SizeResult> sizes, List<Finding> curve, String options, long timestamp,
                         boolean requireAllSizes, String partialStatus,
                         Comparison ncclChoices, NoBaseline noBaseline)
        implements Verdicts {

    @Override
    public void text(java.io.PrintWriter out) {
        GateText.write(this, out);
    }

    @Override
    public String json() {
        return GateJson.render(this);
    }

    @Override
    public String junit() {
        return GateJunit.render(this);
    }

    @Override
    public String markdown() {
        return GateMarkdown.render(this);
    }

    @Override
    public String prometheus() {
        return GatePrometheus.render(this);
    }

    /** The lines to print beside a REGRESSION or DEGRADED verdict; empty for any other verdict. */
    public List<String> ncclChoiceLines() {
        Verdict v = verdict();
        return ncclChoices == null || v != Verdict.REGRESSION && v != Verdict.DEGRADED ? List.of()
                : ncclChoices.lines();
    }

    /**
     * NOTHING_TO_COMPARE: a baseline was there and no size was in both (exit 2: a gate that compared nothing
     * has not passed). NO_BASELINE: no baseline was measured as the run was (exit 7), and the curve check found
     * nothing that degrades the path. INCOMPLETE: --require-all-sizes and a size in one side only.
     */
    public enum Verdict {
        PASS, REGRESSION, DEGRADED, INCOMPLETE, NOTHING_TO_COMPARE, NO_BASELINE
    }

    /** The curve check alone was asked for (--curve-only): no baseline was looked for. */
    public boolean curveOnly() {
        return baselineName == null && noBaseline == null;
    }

    /** The rows worse than the tolerance that the noise keeps the gate from judging. */
    public List<SizeResult> tooNoisy() {
        return sizes.stream().filter(s -> s.status() == SizeResult.Status.TOO_NOISY).toList();
    }

    public List<SizeResult> failing() {
        return sizes.stream().filter(s -> s.status().fails() || requireAllSizes && oneSided(s)).toList();
    }

    /** The sizes in one side only: listed, compared with nothing. */
    public List<SizeResult> oneSided() {
        return sizes.stream().filter(GateReport::oneSided).toList();
    }

    private static boolean oneSided(SizeResult s) {
        return s.status() == SizeResult.Status.NEW || s.status() == SizeResult.Status.MISSING;
    }

    /** Lines compared: each placement of each size is one. */
    public long compared() {
        return sizes.stream().filter(s -> s.comparison() != null).count();
    }

    /** Sizes compared (a size whose two placements were judged counts once): what a person counts in the table. */
    public long comparedSizes() {
        return sizes.stream().filter(s -> s.comparison() != null).map(s -> s.key().withInPlace(false)).distinct().count();
    }

    public boolean curveDegraded() {
        return curve.stream().anyMatch(f -> f.severity() == Severity.ERROR);
    }

    public Verdict verdict() {
        if (baselineName != null && compared() == 0) {
            return Verdict.NOTHING_TO_COMPARE;
        }
        if (sizes.stream().anyMatch(s -> s.status() == SizeResult.Status.REGRESSION)) {
            return Verdict.REGRESSION;
        }
        if (sizes.stream().anyMatch(s -> s.status() == SizeResult.Status.DEGRADED_PATH) || curveDegraded()) {
            return Verdict.DEGRADED;
        }
        if (noBaseline != null) {
            return Verdict.NO_BASELINE;
        }
        if (requireAllSizes && !oneSided().isEmpty()) {
            return Verdict.INCOMPLETE;
        }
        return Verdict.PASS;
    }

    public ExitCode exitCode() {
        return switch (verdict()) {
            case PASS -> ExitCode.OK;
            case NOTHING_TO_COMPARE -> ExitCode.USAGE;
            case NO_BASELINE -> ExitCode.NO_BASELINE;
            default -> ExitCode.DEGRADED;
        };
    }

    /** One line: "PASS: 11 sizes within noise and 5% of baseline X" or "REGRESSION: all_reduce 2 MiB busbw -20%...". */
    public String verdictLine() {
        return GateText.verdictLine(this);
    }
}
