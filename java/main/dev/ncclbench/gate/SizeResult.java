package dev.ncclbench.gate;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.ncclbench.baseline.SizeKey;
import dev.ncclbench.output.NanAsNull;

import java.util.Locale;

/**
 * The gate's verdict on one table line, written as it is into the gate's JSON (docs/gate.md: "sizes"), under the
 * names a reader of the file needs: the key spelt out, the status in lower case, the change's interval.
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
// "key": the key's own fields (collective, size, type, redop, root, placement) in its place
@JsonPropertyOrder({"key", "status", "judged_on", "statistic",
        "baseline_table_us", "run_table_us", "tolerance", "baseline_value", "run_value", "change", "change_ci_low",
        "change_ci_high", "baseline_path", "run_path", "statistics"})
public record SizeResult(@JsonUnwrapped SizeKey key, @JsonProperty("status") Status status, @JsonIgnore boolean latency,
                         @JsonProperty("tolerance") double tolerance, @JsonProperty("statistics") Statistics comparison,
                         @JsonProperty("baseline_value") @NanAsNull double baselineValue,
                         @JsonProperty("run_value") @NanAsNull double runValue, @JsonProperty("change") @NanAsNull double change,
                         @JsonProperty("baseline_path") String basePath, @JsonProperty("run_path") String runPath,
                         @JsonProperty("statistic") String statistic,
                         @JsonProperty("baseline_table_us") @NanAsNull double baseTableUs,
                         @JsonProperty("run_table_us") @NanAsNull double runTableUs) {

    /** The usual statistic: robust to the odd slow iteration, and the samples give the rank test its power. */
    public static final String SAMPLE_MEDIAN = "median of the per-iteration samples";
    /** A run (or baseline) written without per-iteration samples. */
    public static final String TABLE_TIME = "the table's time (mean of the timed loop): no per-iteration samples,"
            + " so the tolerance and, with several runs or -N cycles, their spread decide; no within-run noise estimate";
    /** In place on one rank NCCL moves nothing: the time is the host's launch and wait. */
    public static final String HOST_ONLY = "in place on one rank no data moves: host time only";

    public enum Status {
        OK("ok"), REGRESSION("regression"), DEGRADED_PATH("degraded path"), IMPROVED("improved"),
        /**
         * Worse than the tolerance, but inside the noise band (the baseline's runs, or either side's iterations,
         * scatter as much) or not shown by the rank test: the gate cannot tell a regression from noise. Never
         * failed on, never "ok": counted in the verdict line.
         */
        TOO_NOISY("too noisy to judge"),
        /** Latency with a one-run baseline: how far a whole run moves is unknown, so it cannot fail. */
        UNJUDGED("not judged (one-run baseline)"),
        NEW("new size"), MISSING("not in run"),
        /** No baseline to compare with: the run's figure alone, shown for the curve check. */
        UNCOMPARED("not compared (no baseline)"),
        /** In place on one rank: NCCL moves no data, the time is the host's launch; shown, never failed on. */
        HOST_ONLY("not judged (in place on one rank: no data moves)");

        public final String label;

        Status(String label) {
            this.label = label;
        }

        /** As the gate's JSON spells it: "ok", "regression", "too_noisy" (the label is for people). */
        @JsonValue
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        public boolean fails() {
            return this == REGRESSION || this == DEGRADED_PATH;
        }
    }

    /** What the line was judged on, "latency" or "busbw" (the gate's JSON: judged_on). */
    @JsonProperty("judged_on")
    public String metric() {
        return latency ? "latency" : "busbw";
    }

    /** The low end of {@link #changeInterval}, null on the wire where there is none. */
    @JsonProperty("change_ci_low")
    @NanAsNull
    double changeCiLow() {
        return changeInterval()[0];
    }

    /** The high end of {@link #changeInterval}. */
    @JsonProperty("change_ci_high")
    @NanAsNull
    double changeCiHigh() {
        return changeInterval()[1];
    }

    /** "busbw -20.3%" or "latency +35%". */
    public String changeText() {
        return Double.isFinite(change) ? metric() + " " + GateRow.signedPct(change) : metric();
    }

    /**
     * The 95% interval of {@link #change}, in the judged metric as the change is: the bootstrap interval of the time
     * ratio turned into "latency +X%" or "busbw -X%" (busbw is bytes over time, so its interval is the ratio's
     * inverse); NaN where there is no interval (no comparison, or table times only).
     *
     * @return {low, high}
     */
    public double[] changeInterval() {
        Statistics c = comparison;
        if (c == null || c.tableOnly()) {
            return new double[] {Double.NaN, Double.NaN};
        }
        return latency ? new double[] {c.ciLow() - 1, c.ciHigh() - 1}
                : new double[] {1 / c.ciHigh() - 1, 1 / c.ciLow() - 1};
    }

    /**
     * How far the judged metric moves with nothing changed, the way it gets worse: the noise band of the time ratio
     * ({@link Statistics#noise}) as latency up (+n) or busbw down (1 - 1/(1 + n)), so that it reads beside the change;
     * NaN without a comparison.
     */
    public double noiseInMetric() {
        if (comparison == null) {
            return Double.NaN;
        }
        double n = comparison.noise();
        return latency ? n : 1 - 1 / (1 + n);
    }
}
