package dev.ncclbench.collective;

/**
 * hypercube (nccl-tests' hypercube.cu): an all_gather made of log2(n) exchanges, at step k with rank ^ 2^k, each
 * carrying every block gathered so far. Counts as all_gather's (count / n rounded down to 16 bytes a rank); algbw
 * counts the n - 1 blocks a rank receives, and busbw equals it (factor 1). Only on a power-of-two number of ranks:
 * elsewhere nccl-tests prints a line and runs nothing.
 */
final class HyperCube implements Collective {
    public Kind kind() { return Kind.HYPERCUBE; }
    public boolean reduces() { return false; }
    public boolean rooted() { return false; }
    public Counts counts(long count, int eb, int n) {
        long base = Collective.perRank(count, eb, n);
        return new Counts(base, base * n, base, base, 0);
    }
    public int algBytesRanks(int n) { return n - 1; }
    public double busbwFactor(int n) { return 1; }
    public long source(int rank, long j, Counts c, int n, int root) {
        long b = c.paramCount();
        return Collective.at((int) (j / b), j % b);
    }

    @Override
    public String skipOn(int n) {
        return n > 0 && (n & (n - 1)) == 0 ? null : "nRanks " + n + " is not a power of 2, skipping";
    }

    @Override
    public boolean inAll() {
        return false;
    }
}
