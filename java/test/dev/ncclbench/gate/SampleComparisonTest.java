package dev.ncclbench.gate;

import dev.ncclbench.baseline.SizeKey;
import dev.ncclbench.baseline.SizeSamples;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SampleComparisonTest {
    static final SizeKey KEY = new SizeKey("all_reduce", 1 << 20, "float", "sum", -1);

    /** groups of n samples around median us, log-normal scatter sigma, each group shifted by its own factor. */
    static SizeSamples samples(long seed, double median, double sigma, int n, double... groupShift) {
        SplittableRandom r = new SplittableRandom(seed);
        List<double[]> groups = new ArrayList<>();
        for (double shift : groupShift) {
            double[] g = new double[n];
            for (int i = 0; i < n; i++) {
                g[i] = median * shift * Math.exp(sigma * gaussian(r));
            }
            groups.add(g);
        }
        return new SizeSamples(KEY, groups, 1000.0, List.of());
    }

    private static double gaussian(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    @Test
    void identicalSamplesAreNotAChange() {
        SizeSamples a = samples(1, 100, 0.3, 40, 1);
        Statistics c = SampleComparison.compare(a, a, 7);
        assertEquals(1.0, c.ratio(), 1e-12);
        assertEquals(1.0, c.pSlower());
        assertFalse(c.reallySlower(0.01));
        assertFalse(c.reallyFaster(0.01));
    }

    @Test
    void aQuietQuarterSlowdownIsReal() {
        SizeSamples base = samples(2, 1000, 0.02, 40, 1);
        SizeSamples run = samples(3, 1250, 0.02, 40, 1);
        Statistics c = SampleComparison.compare(base, run, 7);
        assertTrue(c.pSlower() < 1e-6, "p " + c.pSlower());
        assertTrue(c.ciLow() > 1.2 && c.ciHigh() < 1.3, c.ciLow() + " " + c.ciHigh());
        assertTrue(c.reallySlower(0.01));
    }

    @Test
    void aShiftInsideTheBaselinesRunToRunSpreadIsNoise() {
        // five baseline runs whose medians move by up to 40% with each iteration quiet: a run 30% slow is
        // significant iteration by iteration, but the baseline's own runs move that much
        SizeSamples base = samples(4, 1000, 0.02, 40, 1.0, 1.4, 0.9, 1.1, 1.2);
        SizeSamples run = samples(5, 1300, 0.02, 40, 1);
        Statistics c = SampleComparison.compare(base, run, 7);
        assertTrue(c.pSlower() < 0.01, "p " + c.pSlower());
        assertTrue(c.noise() > 0.3, "noise " + c.noise());
        assertFalse(c.reallySlower(0.01));
    }

    @Test
    void theSameFilesGiveTheSameInterval() {
        SizeSamples base = samples(6, 100, 0.5, 30, 1, 1.2);
        SizeSamples run = samples(7, 120, 0.5, 30, 1);
        assertEquals(SampleComparison.compare(base, run, 9), SampleComparison.compare(base, run, 9));
    }

    @Test
    void runToRunIsTheWorstLeaveOneOutFactor() {
        List<double[]> g = List.of(new double[]{10, 10, 10}, new double[]{10, 10, 10}, new double[]{20, 20, 20});
        assertEquals(1.0, SampleComparison.runToRun(g), 1e-12);
        assertEquals(0.0, SampleComparison.runToRun(List.of(new double[]{1, 2, 3})));
    }
}
