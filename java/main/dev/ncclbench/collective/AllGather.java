package dev.ncclbench.collective;

/** all_gather: rank s's block lands at block s on every rank. busbw factor (n-1)/n. */
final class AllGather implements Collective {
    public Kind kind() { return Kind.ALL_GATHER; }
    public boolean reduces() { return false; }
    public boolean rooted() { return false; }
    public Counts counts(long count, int eb, int n) {
        long base = Collective.perRank(count, eb, n);
        return new Counts(base, base * n, base, base, 0);
    }
    public int algBytesRanks(int n) { return n; }
    public double busbwFactor(int n) { return (double) (n - 1) / n; }
    public long source(int rank, long j, Counts c, int n, int root) {
        long b = c.paramCount();
        return Collective.at((int) (j / b), j % b);
    }
}
