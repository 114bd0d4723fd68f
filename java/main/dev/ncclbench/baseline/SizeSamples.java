package dev.ncclbench.baseline;

import java.util.List;

/**
 * The per-iteration times of one table line and placement, one group per run (or per -N cycle): what the gate's
 * rank test and bootstrap resample.
 *
 * <p>A run written without per-iteration samples (a GPU sweep before ncclbench kept them) has only the table's time
 * for each run or cycle: then each group holds that one figure and {@link #tableOnly()} is true, so the gate judges
 * by the tolerance alone and says so.
 *
 * @param groups      per-iteration microseconds, one array per run or cycle, in the order measured
 * @param busbwTimeUs busbw x time of the line (GB/s x us): busbw at any time t is this / t
 * @param paths       the path verdict of each group, or "" where the run had none
 * @param tableUs     the table's time column of each group (nccl-tests' mean over the timed loop), NaN where not
 *                    known (a baseline recorded before it was kept)
 * @param tableOnly   the groups are the table's times, not per-iteration samples
 */
public record SizeSamples(SizeKey key, List<double[]> groups, double busbwTimeUs, List<String> paths,
                          List<Double> tableUs, boolean tableOnly) {

    public SizeSamples {
        groups = List.copyOf(groups);
        paths = List.copyOf(paths);
        tableUs = tableUs == null ? List.of() : List.copyOf(tableUs);
    }

    /** Per-iteration samples without the table's times (fleet's pairs, tests). */
    public SizeSamples(SizeKey key, List<double[]> groups, double busbwTimeUs, List<String> paths) {
        this(key, groups, busbwTimeUs, paths, List.of(), false);
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

    /** The table's time column: the median over the groups that know it, NaN when none does. */
    public double tableTimeUs() {
        double[] t = tableUs.stream().mapToDouble(Double::doubleValue).filter(v -> v > 0 && Double.isFinite(v)).toArray();
        return t.length == 0 ? Double.NaN : Quantiles.median(t);
    }

    /** busbw in GB/s at a time per call, through this line's bytes and bus factor. */
    public double busbwAt(double timeUs) {
        return timeUs > 0 && busbwTimeUs > 0 ? busbwTimeUs / timeUs : Double.NaN;
    }

    /** The last group's path verdict, "" when none. */
    public String path() {
        return paths.isEmpty() ? "" : paths.get(paths.size() - 1);
    }

    /** These groups followed by {@code other}'s (a baseline appended to, runs recorded together). */
    public SizeSamples plus(SizeSamples other) {
        if (tableOnly != other.tableOnly) {
            return asTable().plus(other.asTable()); // one kind of group: per-iteration samples and table times do not mix
        }
        List<double[]> g = new java.util.ArrayList<>(groups);
        g.addAll(other.groups);
        List<String> p = new java.util.ArrayList<>(paths);
        p.addAll(other.paths);
        List<Double> t = new java.util.ArrayList<>(padded(this));
        t.addAll(padded(other));
        return new SizeSamples(key, g, busbwTimeUs > 0 ? busbwTimeUs : other.busbwTimeUs, p, t,
                tableOnly || other.tableOnly);
    }

    /**
     * Each group as its table time alone (its samples' median where the table time is not known): what a line
     * judged beside a run without samples compares.
     */
    public SizeSamples asTable() {
        if (tableOnly) {
            return this;
        }
        List<double[]> g = new java.util.ArrayList<>();
        List<Double> t = padded(this);
        for (int i = 0; i < groups.size(); i++) {
            double v = t.get(i);
            g.add(new double[] {v > 0 && Double.isFinite(v) ? v : Quantiles.median(groups.get(i))});
        }
        return new SizeSamples(key, g, busbwTimeUs, paths, g.stream().map(a -> a[0]).toList(), true);
    }

    private static List<Double> padded(SizeSamples s) {
        if (s.tableUs.size() == s.groups.size()) {
            return s.tableUs;
        }
        return java.util.Collections.nCopies(s.groups.size(), Double.NaN);
    }
}
