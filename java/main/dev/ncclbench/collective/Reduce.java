package dev.ncclbench.collective;

/** reduce: the root ends with the reduction of all inputs. busbw factor 1. */
final class Reduce implements Collective {
    public Kind kind() { return Kind.REDUCE; }
    public boolean reduces() { return true; }
    public boolean rooted() { return true; }
    public Counts counts(long count, int eb, int n) { return Counts.same(count); }
    public int algBytesRanks(int n) { return 1; }
    public double busbwFactor(int n) { return 1.0; }
    public long source(int rank, long j, Counts c, int n, int root) { return rank == root ? REDUCED : UNCHECKED; }
    @Override public boolean hasOutput(int rank, int root) { return rank == root; }
}
