package dev.ncclbench.baseline;

import java.util.Arrays;

/** Quantiles by linear interpolation between order statistics (R's type 7, numpy's default). */
public final class Quantiles {
    private Quantiles() {
    }

    /** The q-quantile (0..1) of an array sorted ascending; NaN when empty. */
    public static double of(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double h = (sorted.length - 1) * q;
        int lo = (int) Math.floor(h);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }

    /** The median of an unsorted array (not modified). */
    public static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return of(s, 0.5);
    }
}
