package dev.ncclbench.collective;

/** sendrecv: rank r sends to r+1 and receives from r-1 (a ring shift). busbw factor 1. */
final class SendRecv implements Collective {
    public Kind kind() { return Kind.SENDRECV; }
    public boolean reduces() { return false; }
    public boolean rooted() { return false; }
    public Counts counts(long count, int eb, int n) { return Counts.same(count); }
    public int algBytesRanks(int n) { return 1; }
    public double busbwFactor(int n) { return 1.0; }
    public long source(int rank, long j, Counts c, int n, int root) { return Collective.at((rank - 1 + n) % n, j); }
}
