package dev.ncclbench.collective;

/**
 * alltoallv's per-peer element counts at one call's count, for a backend that issues the sends and receives itself
 * (the nccl backend's grouped ncclSend/ncclRecv, as nccl-tests' AlltoAllvRunColl).
 */
public final class AllToAllVPattern {
    private final AllToAllV coll;
    private final Counts counts;
    private final int n;
    private final int eb;

    private AllToAllVPattern(AllToAllV coll, Counts counts, int n, int eb) {
        this.coll = coll;
        this.counts = counts;
        this.n = n;
        this.eb = eb;
    }

    /**
     * @param alltoallv  the call's collective: alltoallv with the sweep's spread
     * @param paramCount the count column (per-peer elements before the distance weighting)
     */
    public static AllToAllVPattern of(Collective alltoallv, long paramCount, int n, int eb) {
        return new AllToAllVPattern((AllToAllV) alltoallv, new Counts(0, 0, paramCount, 0, 0), n, eb);
    }

    /** Elements rank i sends to rank j. */
    public long count(int i, int j) {
        return coll.peerCount(i, j, counts, n, eb);
    }
}
