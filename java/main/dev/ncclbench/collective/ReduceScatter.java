package dev.ncclbench.collective;

/** reduce_scatter: rank r ends with block r of the reduction. busbw factor (n-1)/n. */
final class ReduceScatter implements Collective {
    public Kind kind() { return Kind.REDUCE_SCATTER; }
    public boolean reduces() { return true; }
    public boolean rooted() { return false; }
    public Counts counts(long count, int eb, int n) {
        long base = Collective.perRank(count, eb, n);
        return new Counts(base * n, base, base, 0, base);
    }
    public int algBytesRanks(int n) { return n; }
    public double busbwFactor(int n) { return (double) (n - 1) / n; }
    public long source(int rank, long j, Counts c, int n, int root) { return REDUCED; }
    @Override public long reducedIndex(int rank, long j, Counts c, int n) { return rank * c.paramCount() + j; }
}
