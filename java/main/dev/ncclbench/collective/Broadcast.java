package dev.ncclbench.collective;

/** broadcast: every rank ends with the root's input. busbw factor 1. */
final class Broadcast implements Collective {
    public Kind kind() { return Kind.BROADCAST; }
    public boolean reduces() { return false; }
    public boolean rooted() { return true; }
    public Counts counts(long count, int eb, int n) { return Counts.same(count); }
    public int algBytesRanks(int n) { return 1; }
    public double busbwFactor(int n) { return 1.0; }
    public long source(int rank, long j, Counts c, int n, int root) { return Collective.at(root, j); }
}
