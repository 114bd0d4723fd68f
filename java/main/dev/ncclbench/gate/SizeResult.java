package dev.ncclbench.gate;

import dev.ncclbench.baseline.SizeKey;

/**
 * The gate's verdict on one table line.
 *
 * @param latency      judged on latency (small sizes) rather than busbw
 * @param comparison   null when one side has no such line
 * @param baselineValue median time in us (latency) or busbw at the median time in GB/s, NaN when absent
 * @param runValue      the same for the run
 * @param change        the judged metric's relative change: +0.2 is 20% more latency or busbw
 * @param basePath      the baseline's path verdict at this size, "" when none
 * @param runPath       the run's
 */
public record SizeResult(SizeKey key, Status status, boolean latency, double tolerance, Comparison comparison,
                         double baselineValue, double runValue, double change, String basePath, String runPath) {

    public enum Status {
        OK("ok"), REGRESSION("regression"), DEGRADED_PATH("degraded path"), IMPROVED("improved"),
        /** Latency with a one-run baseline: how far a whole run moves is unknown, so it cannot fail. */
        UNJUDGED("not judged (one-run baseline)"),
        NEW("new size"), MISSING("not in run");

        public final String label;

        Status(String label) {
            this.label = label;
        }

        public boolean fails() {
            return this == REGRESSION || this == DEGRADED_PATH;
        }
    }

    public String metric() {
        return latency ? "latency" : "busbw";
    }

    /** "busbw -20.3%" or "latency +35%". */
    public String changeText() {
        return Double.isFinite(change) ? metric() + " " + GateText.signedPct(change) : metric();
    }
}
