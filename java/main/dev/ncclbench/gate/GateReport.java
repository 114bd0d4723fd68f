package dev.ncclbench.gate;

import dev.ncclbench.ExitCode;
import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.finding.Finding;

import java.util.List;

/**
 * Everything one gate decided, for every output format.
 *
 * @param baselineName null when the gate ran without a baseline (the curve check alone)
 * @param exactMatch   whether every fingerprint field matched
 * @param changes      what differs between the baseline's fingerprint and the run's
 * @param curve        the curve check's findings (no baseline needed)
 * @param timestamp    when the gate ran, seconds since the epoch
 */
public record GateReport(String runFile, String baselineName, String baselineFile, int baselineRuns,
                         boolean exactMatch, Fingerprint runFingerprint, List<Fingerprint.Change> changes,
                         List<SizeResult> sizes, List<Finding> curve, String options, long timestamp) {

    public enum Verdict {
        PASS, REGRESSION, DEGRADED
    }

    public List<SizeResult> failing() {
        return sizes.stream().filter(s -> s.status().fails()).toList();
    }

    public boolean curveDegraded() {
        return curve.stream().anyMatch(f -> f.severity() == dev.ncclbench.finding.Severity.ERROR);
    }

    public Verdict verdict() {
        if (sizes.stream().anyMatch(s -> s.status() == SizeResult.Status.REGRESSION)) {
            return Verdict.REGRESSION;
        }
        if (sizes.stream().anyMatch(s -> s.status() == SizeResult.Status.DEGRADED_PATH) || curveDegraded()) {
            return Verdict.DEGRADED;
        }
        return Verdict.PASS;
    }

    public ExitCode exitCode() {
        return verdict() == Verdict.PASS ? ExitCode.OK : ExitCode.DEGRADED;
    }

    /** One line: "PASS: 11 sizes within noise and 5% of baseline X" or "REGRESSION: all_reduce 2 MiB busbw -20%...". */
    public String verdictLine() {
        return GateText.verdictLine(this);
    }
}
