package dev.ncclbench.backend.nccl;

import dev.ncclbench.collective.AllToAllVPattern;
import dev.ncclbench.collective.Kind;

import java.util.ArrayList;
import java.util.List;

/**
 * The send/recv sets one rank issues for a collective that NCCL runs as point-to-point calls: sendrecv, alltoallv and
 * hypercube, and alltoall, gather and scatter on an NCCL without ncclAlltoAll/ncclGather/ncclScatter (before 2.28).
 * As nccl-tests' *RunColl (sendrecv.cu, alltoall.cu, gather.cu, scatter.cu, alltoallv.cu, hypercube.cu of v2.19.6)
 * each set is one ncclGroupStart/End: ungrouped, a rank's send waits for a recv queued behind it (one rank: NCCL
 * refuses "send to self without a matching recv"; several: a hang above the connection buffer). Hypercube issues one
 * set per step (log2 n of them), after copying its own block into place. Gather and scatter with count 0 issue
 * nothing, as nccl-tests returns before any call; alltoallv skips a peer's send or recv of 0 elements, as it does.
 *
 * @param groups    the sets in issue order, each one ncclGroupStart/End
 * @param localCopy hypercube's own block (elements of the receive buffer from this offset, count long), else null;
 *                  with it every transfer, sends included, is in the receive buffer (hypercube.cu sends what it
 *                  gathered)
 */
record P2pPlan(List<List<Transfer>> groups, Transfer localCopy) {

    /**
     * One ncclSend or ncclRecv.
     *
     * @param send   ncclSend, else ncclRecv
     * @param peer   the other rank
     * @param offset where in the send (or receive) buffer it starts, in elements
     * @param count  elements
     */
    record Transfer(boolean send, int peer, long offset, long count) {
    }

    /** Every transfer, in issue order. */
    List<Transfer> transfers() {
        List<Transfer> all = new ArrayList<>();
        groups.forEach(all::addAll);
        return all;
    }

    /** The plan for {@code kind} on {@code rank} of {@code n}, or null when the kind is not a send/recv set. */
    static P2pPlan of(Kind kind, long count, int root, int rank, int n) {
        return of(kind, count, root, rank, n, null);
    }

    /** @param pattern alltoallv's per-peer counts (null for the other kinds) */
    static P2pPlan of(Kind kind, long count, int root, int rank, int n, AllToAllVPattern pattern) {
        List<Transfer> t = new ArrayList<>();
        switch (kind) {
            case SENDRECV -> {
                t.add(block(true, (rank + 1) % n, 0, count));
                t.add(block(false, (rank - 1 + n) % n, 0, count));
            }
            case ALLTOALL -> {
                for (int p = 0; p < n; p++) {
                    t.add(block(true, p, p, count));
                    t.add(block(false, p, p, count));
                }
            }
            case GATHER -> {
                if (count > 0) {
                    t.add(block(true, root, 0, count));
                    for (int p = 0; rank == root && p < n; p++) {
                        t.add(block(false, p, p, count));
                    }
                }
            }
            case SCATTER -> {
                if (count > 0) {
                    for (int p = 0; rank == root && p < n; p++) {
                        t.add(block(true, p, p, count));
                    }
                    t.add(block(false, root, 0, count));
                }
            }
            case ALLTOALLV -> {
                long sent = 0;
                long received = 0;
                for (int p = 0; p < n; p++) {
                    long s = pattern.count(rank, p);
                    long r = pattern.count(p, rank);
                    if (s > 0) {
                        t.add(new Transfer(true, p, sent, s));
                        sent += s;
                    }
                    if (r > 0) {
                        t.add(new Transfer(false, p, received, r));
                        received += r;
                    }
                }
            }
            case HYPERCUBE -> {
                // hypercube.cu: step mask sends the 'mask' blocks gathered so far and receives the partner's
                List<List<Transfer>> steps = new ArrayList<>();
                for (int mask = 1; mask < n; mask <<= 1) {
                    int s = rank & ~(mask - 1);
                    int r = s ^ mask;
                    steps.add(List.of(new Transfer(true, rank ^ mask, s * count, count * mask),
                            new Transfer(false, rank ^ mask, r * count, count * mask)));
                }
                return new P2pPlan(List.copyOf(steps), new Transfer(false, rank, rank * count, count));
            }
            default -> {
                return null;
            }
        }
        return new P2pPlan(List.of(List.copyOf(t)), null);
    }

    private static Transfer block(boolean send, int peer, int index, long count) {
        return new Transfer(send, peer, index * count, count);
    }
}
