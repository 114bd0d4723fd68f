package dev.ncclbench.gate;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.output.NanAsNull;

/**
 * One table line and placement, run against baseline, on per-call time (busbw is bytes x factor / time, so the time
 * ratio decides for both metrics).
 *
 * @param ratio      run median time / baseline median time: above 1 is slower
 * @param ciLow      bootstrap 95% confidence interval of the ratio, lower end (the ratio itself when tableOnly)
 * @param ciHigh     upper end
 * @param pSlower    Mann-Whitney U, one-sided: the chance of samples this much slower if nothing changed (NaN when
 *                   tableOnly: one figure a run has no rank to test)
 * @param pFaster    the same, faster
 * @param noise      how far a ratio moves with nothing changed (fraction): the baseline's run-to-run spread,
 *                   or the interquartile spread of either side's iterations, whichever is larger
 * @param baselineGroups runs (or -N cycles) the baseline holds for this line
 * @param tableOnly  judged on the table's time of each run: one side has no per-iteration samples, so there is no
 *                   rank test and no within-run noise; the tolerance (and the run-to-run spread of a baseline of
 *                   several runs) alone decides
 *
 * <p>The gate's JSON writes it as a line's "statistics".
 */
@JsonPropertyOrder({"baseline_median_us", "run_median_us", "ratio", "ci_low", "ci_high", "p_slower", "p_faster", "noise",
        "baseline_groups", "baseline_samples", "run_samples", "table_only"})
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Statistics(@NanAsNull double baselineMedianUs, @NanAsNull double runMedianUs, @NanAsNull double ratio,
                         @NanAsNull double ciLow, @NanAsNull double ciHigh, @NanAsNull double pSlower,
                         @NanAsNull double pFaster, @NanAsNull double noise, int baselineGroups,
                         @JsonProperty("baseline_samples") int baselineCount,
                         @JsonProperty("run_samples") int runCount, boolean tableOnly) {

    /** Slower beyond the noise band, with the rank test agreeing: the change is real. */
    public boolean reallySlower(double alpha) {
        return tableOnly ? ratio > 1 + noise : pSlower < alpha && ciLow > 1 + noise;
    }

    public boolean reallyFaster(double alpha) {
        return tableOnly ? ratio < 1 / (1 + noise) : pFaster < alpha && ciHigh < 1 / (1 + noise);
    }
}
