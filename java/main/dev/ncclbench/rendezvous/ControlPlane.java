package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;

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

    /**
     * Every rank's payload on the root, indexed by rank; null on the others, which return once every rank has
     * arrived (or with the verdict that ended the job). The root receives O(N) bytes, every other rank O(1): what
     * only rank 0 prints goes there and nowhere else.
     */
    default byte[][] gather(String tag, byte[] mine, int root) {
        byte[][] all = allGather(tag, mine);
        return rank() == root ? all : null;
    }

    /**
     * The payloads of {@code peers}, in that order, every rank publishing its own ({@code mine}): a rank receives
     * O(its peers) bytes, not every rank's (the socket addresses of a ring and its partners at 8192 ranks).
     */
    default byte[][] fromPeers(String tag, byte[] mine, int[] peers) {
        byte[][] all = allGather(tag, mine);
        byte[][] out = new byte[peers.length][];
        for (int i = 0; i < peers.length; i++) {
            out[i] = all[peers[i]];
        }
        return out;
    }

    /** The root's payload on every rank ({@code mine} is ignored on the others). */
    default byte[] broadcast(String tag, byte[] mine, int root) {
        return allGather(tag, rank() == root ? mine : new byte[0])[root];
    }

    default void barrier(String tag) {
        allGather(tag, new byte[0]);
    }

    /**
     * Reports that this rank failed and returns the job's verdict, the same on every rank: the first rank that
     * failed by itself, else the rank lost first, else the ranks that hang. Blocks until the verdict is known
     * (at most the job's timeout).
     *
     * @param self whether this rank failed by itself (out of memory, a signal, its own error) rather than waiting
     *             for or losing a peer
     * @param step what this rank was doing, e.g. "#12 all_reduce 64 MiB out-of-place"
     */
    default NcclbenchException fault(boolean self, ExitCode code, String step, String message) {
        return new NcclbenchException(code, message);
    }

    /**
     * The job's last step, after a failure too: rank 0 says it has written its result; every other rank waits for
     * that (or for rank 0 to be gone, or the timeout), so that no launcher kills rank 0 halfway through it.
     */
    default void exitTogether() {
        try {
            barrier(StoreState.EXIT_TAG);
        } catch (RuntimeException e) {
            // the job is ending anyway: nothing left to wait for
        }
    }

    @Override
    void close();
}
