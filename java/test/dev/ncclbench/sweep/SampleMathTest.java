package dev.ncclbench.sweep;

import dev.ncclbench.results.SampleStats;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** -a combines per-rank times as nccl-tests does; the per-iteration statistics are the textbook ones. */
class SampleMathTest {

    @Test
    void averageModes() {
        double[] t = {4.0, 1.0, 7.0, 4.0};
        assertEquals(4.0, SampleMath.combine(t, 0), 0.0, "-a 0: rank 0");
        assertEquals(4.0, SampleMath.combine(t, 1), 0.0, "-a 1: mean");
        assertEquals(1.0, SampleMath.combine(t, 2), 0.0, "-a 2: min");
        assertEquals(7.0, SampleMath.combine(t, 3), 0.0, "-a 3: max");
        double[] u = {2.0, 3.0};
        assertEquals(2.0, SampleMath.combine(u, 0), 0.0);
        assertEquals(2.5, SampleMath.combine(u, 1), 0.0);
    }

    @Test
    void nearestRankPercentile() {
        double[] s = new double[100];
        for (int i = 0; i < 100; i++) {
            s[i] = i + 1;
        }
        assertEquals(99.0, SampleMath.percentile(s, 99), 0.0);
        assertEquals(50.0, SampleMath.percentile(s, 50), 0.0);
        assertEquals(100.0, SampleMath.percentile(s, 100), 0.0);
        assertEquals(1.0, SampleMath.percentile(s, 0), 0.0);
        assertEquals(5.0, SampleMath.percentile(new double[] {5.0}, 99), 0.0);
        assertTrue(Double.isNaN(SampleMath.percentile(new double[0], 50)));
    }

    @Test
    void stats() {
        SampleStats s = SampleMath.stats(new double[] {4, 2, 8, 6});
        assertEquals(4, s.count());
        assertEquals(2.0, s.minUs(), 0.0);
        assertEquals(8.0, s.maxUs(), 0.0);
        assertEquals(6.0, s.medianUs(), 0.0, "nccl-tests' sorted[n/2]");
        assertEquals(5.0, s.meanUs(), 0.0);
        assertEquals(8.0, s.p99Us(), 0.0);
        // the population standard deviation sqrt(20/4), as nccl-tests' computeIterStats, as a percent of the mean
        assertEquals(Math.sqrt(20.0 / 4) / 5 * 100, s.cvPercent(), 1e-12);
        SampleStats one = SampleMath.stats(new double[] {3});
        assertEquals(3.0, one.medianUs(), 0.0);
        assertEquals(0.0, one.cvPercent(), 0.0);
        assertNull(SampleMath.stats(new double[0]));
        assertNull(SampleMath.stats(null));
    }

    @Test
    void statsDoNotReorderTheCallersSamples() {
        double[] samples = {3, 1, 2};
        SampleMath.stats(samples);
        assertEquals(3.0, samples[0], 0.0);
    }

    @Test
    void theSamplesThemselvesAreKeptBounded() {
        SampleStats s = SampleMath.stats(new double[] {4, 2, 8, 6});
        assertEquals(java.util.List.of(4.0, 2.0, 8.0, 6.0), s.valuesUs(), "in the order measured");
        double[] many = new double[5000];
        for (int i = 0; i < many.length; i++) {
            many[i] = i;
        }
        SampleStats big = SampleMath.stats(many);
        assertEquals(5000, big.count());
        assertEquals(SampleStats.MAX_KEPT, big.valuesUs().size());
        assertEquals(0.0, big.valuesUs().get(0), 0.0);
        assertEquals(5.0, big.valuesUs().get(1), 0.0, "every 5th, evenly spaced");
    }

    /** -K: the first samples leave the statistics and stay in the samples; nearest-rank p95/p99 as util.cu. */
    @Test
    void skipLeavesTheSummaryOnly() {
        double[] samples = new double[101];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = i == 0 ? 1000 : i;
        }
        SampleStats s = SampleMath.stats(samples, 1, new double[][] {samples}, true);
        assertEquals(100, s.count());
        assertEquals(1.0, s.minUs(), 0.0);
        assertEquals(100.0, s.maxUs(), 0.0, "the skipped 1000 is not the max");
        assertEquals(99.0, s.p99Us(), 0.0, "index min(n-1, (n*99+99)/100-1) = 98");
        assertEquals(95.0, s.p95Us(), 0.0);
        assertEquals(51.0, s.medianUs(), 0.0, "sorted[50]");
        assertEquals(1, s.skipped());
        assertEquals(101, s.timesUs().length, "times_us keeps every iteration");
        assertEquals(1000.0, s.timesUs()[0], 0.0);
        assertEquals(0, SampleMath.stats(samples).perRankUs().length, "rows only when -J asks for them");
        assertEquals(9, SampleMath.nearestRank(10, 99));
        assertEquals(0, SampleMath.nearestRank(1, 99));
    }

    /** nccl-tests' GatherProcessMaxIterTimes and ReduceProcessMaxIterTimes: the slowest rank per iteration, not -a. */
    @Test
    void ranksCombinePerIterationByTheirMaximum() {
        double[][] rows = SampleMath.rows(new double[][] {{1, 5, 3}, {4, 2, 6}, {}}, 3);
        assertEquals(3, rows.length);
        assertEquals(java.util.List.of(4.0, 5.0, 6.0),
                java.util.Arrays.stream(SampleMath.maxPerIteration(rows)).boxed().toList());
    }
}
