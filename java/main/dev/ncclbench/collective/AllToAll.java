package dev.ncclbench.collective;

/** alltoall: block r of rank s's input lands at block s on rank r. busbw factor (n-1)/n. */
final class AllToAll implements Collective {
    public Kind kind() { return Kind.ALLTOALL; }
    public boolean reduces() { return false; }
    public boolean rooted() { return false; }
    public Counts counts(long count, int eb, int n) {
        long base = Collective.perRank(count, eb, n);
        return new Counts(base * n, base * n, base, 0, 0);
    }
    public int algBytesRanks(int n) { return n; }
    public double busbwFactor(int n) { return (double) (n - 1) / n; }
    public long source(int rank, long j, Counts c, int n, int root) {
        long b = c.paramCount();
        return Collective.at((int) (j / b), rank * b + j % b);
    }
}
