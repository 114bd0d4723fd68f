package dev.ncclbench.sweep;

import dev.ncclbench.results.SampleStats;
import org.apache.commons.math3.stat.descriptive.rank.Min;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.apache.commons.math3.stat.descriptive.rank.Percentile.EstimationType;

/** Combining per-rank times (-a) and summarising per-iteration samples, with commons-math3's estimators. */
final class SampleMath {
    private SampleMath() {
    }

    /**
     * nccl-tests' -a: 0 rank 0, 1 mean, 2 min, 3 max. Plain loops, not commons-math3's objects: it runs once per
     * timed iteration, and compiling the objects' calls took a rank's CPU inside a timed loop
     * (docs/benchmarks.md#samplemath).
     */
    static double combine(double[] perRank, int mode) {
        if (mode == 0) {
            return perRank[0];
        }
        if (perRank.length == 0) {
            return Double.NaN;
        }
        double acc = mode == 2 ? Double.POSITIVE_INFINITY : mode == 3 ? Double.NEGATIVE_INFINITY : 0;
        for (double v : perRank) {
            acc = mode == 2 ? Math.min(acc, v) : mode == 3 ? Math.max(acc, v) : acc + v;
        }
        return mode == 2 || mode == 3 ? acc : acc / perRank.length;
    }

    /** Nearest-rank percentile (commons-math3's R_1: the inverse of the empirical distribution). */
    static double percentile(double[] samples, double p) {
        if (samples.length == 0) {
            return Double.NaN;
        }
        if (p <= 0) {
            return new Min().evaluate(samples);
        }
        return new Percentile().withEstimationType(EstimationType.R_1).evaluate(samples, p);
    }

    static SampleStats stats(double[] samplesUs) {
        return stats(samplesUs, 0, null, false);
    }

    /**
     * nccl-tests' computeIterStats (util.cu) over the samples after the first {@code skip} (-K): sorted[n/2] as the
     * median, nearest-rank p95 and p99, the population standard deviation; the samples kept in the order measured.
     *
     * @param perRank   each rank's own samples, kept for nccl-tests' JSON when {@code keepAll}; may be null
     * @param keepAll   keep every sample and each rank's row (nccl-tests' -J), not only {@link SampleStats#MAX_KEPT}
     */
    static SampleStats stats(double[] samplesUs, int skip, double[][] perRank, boolean keepAll) {
        if (samplesUs == null || samplesUs.length == 0) {
            return null;
        }
        int from = skip > 0 && skip < samplesUs.length ? skip : 0;
        double[] sorted = java.util.Arrays.copyOfRange(samplesUs, from, samplesUs.length);
        java.util.Arrays.sort(sorted);
        int n = sorted.length;
        double sum = 0;
        for (double v : sorted) {
            sum += v;
        }
        double mean = sum / n;
        double var = 0;
        for (double v : sorted) {
            var += (v - mean) * (v - mean);
        }
        double sd = Math.sqrt(var / n);
        return new SampleStats(n, sorted[0], sorted[n / 2], sorted[nearestRank(n, 99)], sorted[n - 1], mean,
                mean > 0 ? sd / mean * 100 : 0, SampleStats.kept(samplesUs), sorted[nearestRank(n, 95)], sd, from,
                keepAll ? samplesUs.clone() : null, keepAll ? perRank : null);
    }

    /** nccl-tests' percentileIndex: min(n - 1, ceil(n p / 100) - 1) in integers. */
    static int nearestRank(int n, int percentile) {
        return Math.min(n - 1, (n * percentile + 99) / 100 - 1);
    }

    /** Each rank's samples, a rank with fewer than {@code n} (none kept) standing in with rank 0's. */
    static double[][] rows(double[][] perRank, int n) {
        double[][] rows = new double[perRank.length][];
        for (int r = 0; r < perRank.length; r++) {
            rows[r] = perRank[r].length == n ? perRank[r] : perRank[0];
        }
        return rows;
    }

    /** nccl-tests' ReduceProcessMaxIterTimes: each iteration's time is the slowest rank's. */
    static double[] maxPerIteration(double[][] rows) {
        double[] max = rows.length == 0 ? new double[0] : rows[0].clone();
        for (double[] row : rows) {
            for (int i = 0; i < max.length; i++) {
                max[i] = Math.max(max[i], row[i]);
            }
        }
        return max;
    }
}
