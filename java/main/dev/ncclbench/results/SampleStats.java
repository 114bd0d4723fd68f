package dev.ncclbench.results;

import java.util.List;

/**
 * Statistics of the per-iteration samples of one placement, in microseconds, and the samples themselves
 * (at most {@link #MAX_KEPT}, evenly spaced over the run when there were more) for rank tests such as the
 * gate's Mann-Whitney U.
 *
 * @param valuesUs the per-iteration samples kept, in the order measured; empty when none were kept
 */
public record SampleStats(int count, double minUs, double medianUs, double p99Us, double maxUs, double meanUs,
                          double cvPercent, List<Double> valuesUs) {
    /** A row keeps at most this many samples per placement: -n 100000 must not make a 100 MB result. */
    public static final int MAX_KEPT = 1000;

    public SampleStats {
        valuesUs = valuesUs == null ? List.of() : List.copyOf(valuesUs);
    }

    /** Statistics without the samples (a result written before they were kept). */
    public SampleStats(int count, double minUs, double medianUs, double p99Us, double maxUs, double meanUs,
                       double cvPercent) {
        this(count, minUs, medianUs, p99Us, maxUs, meanUs, cvPercent, List.of());
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
