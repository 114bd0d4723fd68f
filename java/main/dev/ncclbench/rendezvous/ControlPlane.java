package dev.ncclbench.rendezvous;

/**
 * Small, slow messages between ranks, outside the data path: addresses, the NCCL unique id, timings,
 * error counts, results. Every call is collective over all ranks with the same tag, and bounded by the
 * job's timeout: a rank that never arrives becomes a {@link dev.ncclbench.NcclbenchException} naming it.
 */
public interface ControlPlane extends AutoCloseable {

    int rank();

    int nranks();

    /** Every rank's payload, indexed by rank. */
    byte[][] allGather(String tag, byte[] mine);

    /** The root's payload on every rank ({@code mine} is ignored on the others). */
    default byte[] broadcast(String tag, byte[] mine, int root) {
        return allGather(tag, rank() == root ? mine : new byte[0])[root];
    }

    default void barrier(String tag) {
        allGather(tag, new byte[0]);
    }

    @Override
    void close();
}
