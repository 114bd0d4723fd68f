package dev.ncclbench.collective;

/** scatter: block r of the root's input lands on rank r. busbw factor (n-1)/n. */
final class Scatter implements Collective {
    public Kind kind() { return Kind.SCATTER; }
    public boolean reduces() { return false; }
    public boolean rooted() { return true; }
    public Counts counts(long count, int eb, int n) {
        long base = Collective.perRank(count, eb, n);
        return new Counts(base * n, base, base, 0, base);
    }
    public int algBytesRanks(int n) { return n; }
    public double busbwFactor(int n) { return (double) (n - 1) / n; }
    public long source(int rank, long j, Counts c, int n, int root) {
        return Collective.at(root, rank * c.paramCount() + j);
    }
}
