package dev.ncclbench.baseline;

import java.util.List;

/**
 * The per-iteration times of one table line, one group per run (or per -N cycle), both placements pooled:
 * what the gate's rank test and bootstrap resample.
 *
 * @param groups      per-iteration microseconds, one array per run or cycle, in the order measured
 * @param busbwTimeUs busbw x time of the line (GB/s x us): busbw at any time t is this / t
 * @param paths       the path verdict of each group, or "" where the run had none
 */
public record SizeSamples(SizeKey key, List<double[]> groups, double busbwTimeUs, List<String> paths) {

    public SizeSamples {
        groups = List.copyOf(groups);
        paths = List.copyOf(paths);
    }

    public double[] pooled() {
        int n = 0;
        for (double[] g : groups) {
            n += g.length;
        }
        double[] out = new double[n];
        int i = 0;
        for (double[] g : groups) {
            System.arraycopy(g, 0, out, i, g.length);
            i += g.length;
        }
        return out;
    }

    /** busbw in GB/s at a time per call, through this line's bytes and bus factor. */
    public double busbwAt(double timeUs) {
        return timeUs > 0 && busbwTimeUs > 0 ? busbwTimeUs / timeUs : Double.NaN;
    }

    /** The last group's path verdict, "" when none. */
    public String path() {
        return paths.isEmpty() ? "" : paths.get(paths.size() - 1);
    }
}
