package dev.ncclbench.sweep;

import dev.ncclbench.results.SampleStats;
import org.apache.commons.math3.stat.descriptive.moment.Mean;
import org.apache.commons.math3.stat.descriptive.moment.StandardDeviation;
import org.apache.commons.math3.stat.descriptive.rank.Max;
import org.apache.commons.math3.stat.descriptive.rank.Median;
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
        if (samplesUs == null || samplesUs.length == 0) {
            return null;
        }
        double mean = new Mean().evaluate(samplesUs);
        // the sample (n - 1) standard deviation; 0 for a single sample
        double sd = samplesUs.length > 1 ? new StandardDeviation(true).evaluate(samplesUs) : 0;
        return new SampleStats(samplesUs.length, new Min().evaluate(samplesUs), new Median().evaluate(samplesUs),
                percentile(samplesUs, 99), new Max().evaluate(samplesUs), mean, mean > 0 ? sd / mean * 100 : 0,
                SampleStats.kept(samplesUs));
    }
}
