package dev.ncclbench.gate;

import dev.ncclbench.baseline.Quantiles;
import dev.ncclbench.baseline.SizeSamples;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;
import org.apache.commons.math3.stat.ranking.NaNStrategy;
import org.apache.commons.math3.stat.ranking.NaturalRanking;
import org.apache.commons.math3.stat.ranking.TiesStrategy;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The statistics of the gate: a Mann-Whitney U test on the per-iteration samples and a bootstrap confidence
 * interval of the ratio of medians. The bootstrap resamples runs first, then iterations within them, when a
 * side has several runs: on a shared machine whole runs shift together, and iterations of one run are not
 * independent of each other. Seeded, so the same files give the same verdict.
 */
final class SampleComparison {
    static final int RESAMPLES = 2000;

    private SampleComparison() {
    }

    static Statistics compare(SizeSamples baseline, SizeSamples run, long seed) {
        double[] b = baseline.pooled();
        double[] r = run.pooled();
        double mb = Quantiles.median(b);
        double mr = Quantiles.median(r);
        double p2 = b.length < 2 || r.length < 2 ? 1.0 : new MannWhitneyUTest().mannWhitneyUTest(r, b);
        boolean slower = rankSumOfFirst(r, b) > r.length * (r.length + 1) / 2.0 + r.length * (double) b.length / 2;
        double pSlower = slower ? p2 / 2 : 1 - p2 / 2;
        double pFaster = slower ? 1 - p2 / 2 : p2 / 2;
        if (mb == mr && Arrays.equals(sorted(b), sorted(r))) {
            pSlower = 1;
            pFaster = 1;
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] ratios = new double[RESAMPLES];
        for (int i = 0; i < RESAMPLES; i++) {
            ratios[i] = resampledMedian(run.groups(), rnd) / resampledMedian(baseline.groups(), rnd);
        }
        Arrays.sort(ratios);
        double noise = Math.max(runToRun(baseline.groups()), Math.max(spread(b), spread(r)));
        return new Statistics(mb, mr, mr / mb, Quantiles.of(ratios, 0.025), Quantiles.of(ratios, 0.975), pSlower,
                pFaster, noise, baseline.groups().size(), b.length, r.length, false);
    }

    /**
     * The table's time of each run against the baseline's: no per-iteration samples on one side, so no rank test and
     * no bootstrap. The noise band is the baseline's run-to-run spread (0 with one run): the tolerance decides.
     */
    static Statistics ofTables(SizeSamples baseline, SizeSamples run) {
        double mb = Quantiles.median(baseline.pooled());
        double mr = Quantiles.median(run.pooled());
        double ratio = mr / mb;
        return new Statistics(mb, mr, ratio, ratio, ratio, Double.NaN, Double.NaN, runToRun(baseline.groups()),
                baseline.groups().size(), baseline.pooled().length, run.pooled().length, true);
    }

    /** The interquartile range over the median: how far one run's iterations scatter. */
    static double spread(double[] x) {
        double[] s = sorted(x);
        double m = Quantiles.of(s, 0.5);
        return m > 0 ? (Quantiles.of(s, 0.75) - Quantiles.of(s, 0.25)) / m : 0;
    }

    /**
     * The largest factor by which one run's median differs from the median of the other runs pooled (leave one
     * out), minus one; 0 with a single run.
     */
    static double runToRun(List<double[]> groups) {
        if (groups.size() < 2) {
            return 0;
        }
        double worst = 0;
        for (int i = 0; i < groups.size(); i++) {
            int n = 0;
            for (int j = 0; j < groups.size(); j++) {
                n += j == i ? 0 : groups.get(j).length;
            }
            double[] others = new double[n];
            int k = 0;
            for (int j = 0; j < groups.size(); j++) {
                if (j != i) {
                    System.arraycopy(groups.get(j), 0, others, k, groups.get(j).length);
                    k += groups.get(j).length;
                }
            }
            double f = Quantiles.median(groups.get(i)) / Quantiles.median(others);
            worst = Math.max(worst, Math.abs(Math.log(f)));
        }
        return Math.exp(worst) - 1;
    }

    /** Runs drawn with replacement, then iterations within each drawn run; the median of what was drawn. */
    private static double resampledMedian(List<double[]> groups, SplittableRandom rnd) {
        int total = 0;
        double[][] picked = new double[groups.size()][];
        for (int g = 0; g < picked.length; g++) {
            picked[g] = groups.size() == 1 ? groups.get(0) : groups.get(rnd.nextInt(groups.size()));
            total += picked[g].length;
        }
        double[] draw = new double[total];
        int k = 0;
        for (double[] g : picked) {
            for (int i = 0; i < g.length; i++) {
                draw[k++] = g[rnd.nextInt(g.length)];
            }
        }
        Arrays.sort(draw);
        return Quantiles.of(draw, 0.5);
    }

    private static double rankSumOfFirst(double[] x, double[] y) {
        double[] all = new double[x.length + y.length];
        System.arraycopy(x, 0, all, 0, x.length);
        System.arraycopy(y, 0, all, x.length, y.length);
        double[] ranks = new NaturalRanking(NaNStrategy.FIXED, TiesStrategy.AVERAGE).rank(all);
        double sum = 0;
        for (int i = 0; i < x.length; i++) {
            sum += ranks[i];
        }
        return sum;
    }

    private static double[] sorted(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        return s;
    }
}
