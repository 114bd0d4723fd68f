package dev.ncclbench.sweep;

import dev.ncclbench.results.SampleStats;

import java.util.Arrays;

/** Combining per-rank times (-a) and summarising per-iteration samples. */
final class SampleMath {
    private SampleMath() {
    }

    /** nccl-tests' -a: 0 rank 0, 1 mean, 2 min, 3 max. */
    static double combine(double[] perRank, int mode) {
        switch (mode) {
            case 0: return perRank[0];
            case 2: return Arrays.stream(perRank).min().orElse(Double.NaN);
            case 3: return Arrays.stream(perRank).max().orElse(Double.NaN);
            default: return Arrays.stream(perRank).sum() / perRank.length;
        }
    }

    /** Nearest-rank percentile on a sorted array. */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
    }

    static SampleStats stats(double[] samplesUs) {
        if (samplesUs == null || samplesUs.length == 0) {
            return null;
        }
        double[] s = samplesUs.clone();
        Arrays.sort(s);
        double mean = Arrays.stream(s).sum() / s.length;
        double var = 0;
        for (double v : s) {
            var += (v - mean) * (v - mean);
        }
        double sd = s.length > 1 ? Math.sqrt(var / (s.length - 1)) : 0;
        double median = s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        return new SampleStats(s.length, s[0], median, percentile(s, 99), s[s.length - 1], mean,
                mean > 0 ? sd / mean * 100 : 0);
    }
}
