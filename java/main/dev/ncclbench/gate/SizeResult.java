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
 * @param statistic     what the line was judged on, in words ({@link #SAMPLE_MEDIAN} or {@link #TABLE_TIME})
 * @param baseTableUs   the baseline's table time (nccl-tests' mean over the timed loop), NaN when not known
 * @param runTableUs    the run's table time: the figure the sweep printed, shown beside the judged one
 */
public record SizeResult(SizeKey key, Status status, boolean latency, double tolerance, Comparison comparison,
                         double baselineValue, double runValue, double change, String basePath, String runPath,
                         String statistic, double baseTableUs, double runTableUs) {

    /** The usual statistic: robust to the odd slow iteration, and the samples give the rank test its power. */
    public static final String SAMPLE_MEDIAN = "median of the per-iteration samples";
    /** A run (or baseline) written without per-iteration samples. */
    public static final String TABLE_TIME = "the table's time (mean of the timed loop): no per-iteration samples,"
            + " so the tolerance and, with several runs or -N cycles, their spread decide; no within-run noise estimate";
    /** In place on one rank NCCL moves nothing: the time is the host's launch and wait. */
    public static final String HOST_ONLY = "in place on one rank no data moves: host time only";

    public enum Status {
        OK("ok"), REGRESSION("regression"), DEGRADED_PATH("degraded path"), IMPROVED("improved"),
        /** Latency with a one-run baseline: how far a whole run moves is unknown, so it cannot fail. */
        UNJUDGED("not judged (one-run baseline)"),
        NEW("new size"), MISSING("not in run"),
        /** In place on one rank: NCCL moves no data, the time is the host's launch; shown, never failed on. */
        HOST_ONLY("not judged (in place on one rank: no data moves)");

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
