package dev.ncclbench.backend.nccl;

import dev.ncclbench.collective.Kind;

import java.util.ArrayList;
import java.util.List;

/**
 * The send/recv set one rank issues for a collective that NCCL runs as point-to-point calls: sendrecv, and
 * alltoall, gather and scatter on an NCCL without ncclAlltoAll/ncclGather/ncclScatter (before 2.28). As
 * nccl-tests' *RunColl (sendrecv.cu, alltoall.cu, gather.cu, scatter.cu of v2.19.6) the whole set is one
 * ncclGroupStart/End: ungrouped, a rank's send waits for a recv queued behind it (one rank: NCCL refuses "send to
 * self without a matching recv"; several: a hang above the connection buffer). Gather and scatter with count 0
 * issue nothing, as nccl-tests returns before any call.
 *
 * @param transfers in issue order
 */
record P2pPlan(List<Transfer> transfers) {

    /**
     * One ncclSend or ncclRecv.
     *
     * @param send        ncclSend, else ncclRecv
     * @param peer        the other rank
     * @param bufferIndex which count-sized block of the send (or receive) buffer: block x count x element bytes in
     */
    record Transfer(boolean send, int peer, int bufferIndex) {
    }

    /** The plan for {@code kind} on {@code rank} of {@code n}, or null when the kind is not a send/recv set. */
    static P2pPlan of(Kind kind, long count, int root, int rank, int n) {
        List<Transfer> t = new ArrayList<>();
        switch (kind) {
            case SENDRECV -> {
                t.add(new Transfer(true, (rank + 1) % n, 0));
                t.add(new Transfer(false, (rank - 1 + n) % n, 0));
            }
            case ALLTOALL -> {
                for (int p = 0; p < n; p++) {
                    t.add(new Transfer(true, p, p));
                    t.add(new Transfer(false, p, p));
                }
            }
            case GATHER -> {
                if (count > 0) {
                    t.add(new Transfer(true, root, 0));
                    for (int p = 0; rank == root && p < n; p++) {
                        t.add(new Transfer(false, p, p));
                    }
                }
            }
            case SCATTER -> {
                if (count > 0) {
                    for (int p = 0; rank == root && p < n; p++) {
                        t.add(new Transfer(true, p, p));
                    }
                    t.add(new Transfer(false, root, 0));
                }
            }
            default -> {
                return null;
            }
        }
        return new P2pPlan(List.copyOf(t));
    }
}
