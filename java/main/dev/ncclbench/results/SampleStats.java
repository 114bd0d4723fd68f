package dev.ncclbench.results;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.ncclbench.output.NanAsNull;

import java.util.List;

/**
 * Statistics of the per-iteration samples of one placement, in microseconds, as nccl-tests' computeIterStats
 * (util.cu) makes them: min, max, p50 = sorted[n/2], nearest-rank p95 and p99, mean, population stdev, cv% =
 * stdev/mean; over the samples after the first {@code skipped} (-K). Also the samples themselves (at most
 * {@link #MAX_KEPT}, evenly spaced over the run when there were more) for rank tests such as the gate's Mann-Whitney
 * U, and, for nccl-tests' JSON (-J), every iteration's time and each rank's row.
 *
 * @param valuesUs     the per-iteration samples kept, in the order measured; empty when none were kept
 * @param skipped      leading iterations left out of the statistics (-K); they are still in timesUs
 * @param timesUs      every iteration, the maximum over ranks (nccl-tests' times_us); empty when not kept
 * @param perRankUs    each rank's own per-iteration times, rank order (per_process_max_times_us); empty when not kept
 *
 * <p>A result file holds the first seven as "samples" and the kept samples beside them ({@link Measurement}); the
 * rest are for nccl-tests' JSON only and read back as NaN, 0 and empty.
 */
@JsonPropertyOrder({"count", "min_us", "median_us", "p99_us", "max_us", "mean_us", "cv_percent"})
public record SampleStats(@JsonProperty("count") int count, @JsonProperty("min_us") @NanAsNull double minUs,
                          @JsonProperty("median_us") @NanAsNull double medianUs,
                          @JsonProperty("p99_us") @NanAsNull double p99Us,
                          @JsonProperty("max_us") @NanAsNull double maxUs,
                          @JsonProperty("mean_us") @NanAsNull double meanUs,
                          @JsonProperty("cv_percent") @NanAsNull double cvPercent,
                          @JsonIgnore List<Double> valuesUs, @JsonIgnore double p95Us, @JsonIgnore double stdevUs,
                          @JsonIgnore int skipped, @JsonIgnore double[] timesUs, @JsonIgnore double[][] perRankUs) {
    /** A row keeps at most this many samples per placement: -n 100000 must not make a 100 MB result. */
    public static final int MAX_KEPT = 1000;

    public SampleStats {
        valuesUs = valuesUs == null ? List.of() : List.copyOf(valuesUs);
        timesUs = timesUs == null ? new double[0] : timesUs;
        perRankUs = perRankUs == null ? new double[0][] : perRankUs;
    }

    /** Statistics and kept samples, without nccl-tests' extra figures (a result read back from our JSON). */
    public SampleStats(int count, double minUs, double medianUs, double p99Us, double maxUs, double meanUs,
                       double cvPercent, List<Double> valuesUs) {
        this(count, minUs, medianUs, p99Us, maxUs, meanUs, cvPercent, valuesUs, Double.NaN, Double.NaN, 0, null, null);
    }

    /** Statistics without the samples (as a result file holds them; {@link Measurement} adds the samples). */
    @JsonCreator
    public SampleStats(@JsonProperty("count") int count, @JsonProperty("min_us") @NanAsNull double minUs,
                       @JsonProperty("median_us") @NanAsNull double medianUs,
                       @JsonProperty("p99_us") @NanAsNull double p99Us, @JsonProperty("max_us") @NanAsNull double maxUs,
                       @JsonProperty("mean_us") @NanAsNull double meanUs,
                       @JsonProperty("cv_percent") @NanAsNull double cvPercent) {
        this(count, minUs, medianUs, p99Us, maxUs, meanUs, cvPercent, List.of());
    }

    /** These statistics with {@code values} as the kept samples (null: none). */
    public SampleStats withValues(List<Double> values) {
        return new SampleStats(count, minUs, medianUs, p99Us, maxUs, meanUs, cvPercent, values, p95Us, stdevUs,
                skipped, timesUs, perRankUs);
    }

    /** Arrays by content: a result read back equals the one written. */
    @Override
    public boolean equals(Object o) {
        return o instanceof SampleStats s && count == s.count && Double.compare(minUs, s.minUs) == 0
                && Double.compare(medianUs, s.medianUs) == 0 && Double.compare(p99Us, s.p99Us) == 0
                && Double.compare(maxUs, s.maxUs) == 0 && Double.compare(meanUs, s.meanUs) == 0
                && Double.compare(cvPercent, s.cvPercent) == 0 && valuesUs.equals(s.valuesUs)
                && Double.compare(p95Us, s.p95Us) == 0 && Double.compare(stdevUs, s.stdevUs) == 0 && skipped == s.skipped
                && java.util.Arrays.equals(timesUs, s.timesUs) && java.util.Arrays.deepEquals(perRankUs, s.perRankUs);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(count, minUs, medianUs, p99Us, maxUs, meanUs, cvPercent, valuesUs, p95Us, stdevUs,
                skipped, java.util.Arrays.hashCode(timesUs), java.util.Arrays.deepHashCode(perRankUs));
    }

    /** At most {@link #MAX_KEPT} of {@code samples}: all of them, or every k-th, in order. */
    public static List<Double> kept(double[] samples) {
        int n = samples.length;
        int keep = Math.min(n, MAX_KEPT);
        Double[] out = new Double[keep];
        for (int i = 0; i < keep; i++) {
            out[i] = samples[(int) ((long) i * n / keep)];
        }
        return List.of(out);
    }
}
