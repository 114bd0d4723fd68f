package dev.ncclbench.collective;

/** all_reduce: every rank ends with the reduction of all inputs. busbw factor 2(n-1)/n. */
final class AllReduce implements Collective {
    public Kind kind() { return Kind.ALL_REDUCE; }
    public boolean reduces() { return true; }
    public boolean rooted() { return false; }
    public Counts counts(long count, int eb, int n) { return Counts.same(count); }
    public int algBytesRanks(int n) { return 1; }
    public double busbwFactor(int n) { return 2.0 * (n - 1) / n; }
    public long source(int rank, long j, Counts c, int n, int root) { return REDUCED; }
}
