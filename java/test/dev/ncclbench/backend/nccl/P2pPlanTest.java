package dev.ncclbench.backend.nccl;

import dev.ncclbench.backend.nccl.P2pPlan.Transfer;
import dev.ncclbench.collective.Kind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The send/recv sets nccl-tests v2.19.6 groups (sendrecv.cu, alltoall.cu, gather.cu, scatter.cu), rank by rank. */
class P2pPlanTest {
    private static Transfer send(int peer, int block) {
        return new Transfer(true, peer, block);
    }

    private static Transfer recv(int peer, int block) {
        return new Transfer(false, peer, block);
    }

    @Test
    void sendrecvOnOneRankIsASendToSelfAndItsMatchingRecvInOneSet() {
        // ungrouped, NCCL answers "Trying to send to self without a matching recv" (ncclInvalidUsage)
        assertEquals(List.of(send(0, 0), recv(0, 0)), P2pPlan.of(Kind.SENDRECV, 8, 0, 0, 1).transfers());
    }

    @Test
    void sendrecvSendsToTheNextRankAndReceivesFromThePrevious() {
        assertEquals(List.of(send(0, 0), recv(2, 0)), P2pPlan.of(Kind.SENDRECV, 8, 0, 3, 4).transfers());
        assertEquals(List.of(send(1, 0), recv(3, 0)), P2pPlan.of(Kind.SENDRECV, 8, 0, 0, 4).transfers());
    }

    @Test
    void alltoallSendsAndReceivesOneBlockPerPeerInPeerOrder() {
        assertEquals(List.of(send(0, 0), recv(0, 0), send(1, 1), recv(1, 1), send(2, 2), recv(2, 2)),
                P2pPlan.of(Kind.ALLTOALL, 8, 0, 1, 3).transfers());
    }

    @Test
    void gatherRootReceivesFromEveryRankOthersOnlySend() {
        assertEquals(List.of(send(1, 0), recv(0, 0), recv(1, 1), recv(2, 2)), P2pPlan.of(Kind.GATHER, 8, 1, 1, 3).transfers());
        assertEquals(List.of(send(1, 0)), P2pPlan.of(Kind.GATHER, 8, 1, 2, 3).transfers());
    }

    @Test
    void scatterRootSendsToEveryRankEveryRankReceivesFromTheRoot() {
        assertEquals(List.of(send(0, 0), send(1, 1), recv(0, 0)), P2pPlan.of(Kind.SCATTER, 8, 0, 0, 2).transfers());
        assertEquals(List.of(recv(0, 0)), P2pPlan.of(Kind.SCATTER, 8, 0, 1, 2).transfers());
    }

    @Test
    void gatherAndScatterOfNothingIssueNothing() {
        assertTrue(P2pPlan.of(Kind.GATHER, 0, 0, 0, 4).transfers().isEmpty());
        assertTrue(P2pPlan.of(Kind.SCATTER, 0, 0, 0, 4).transfers().isEmpty());
    }

    @Test
    void everyCollectiveNcclRunsItselfHasNoPlan() {
        for (Kind k : List.of(Kind.ALL_REDUCE, Kind.ALL_GATHER, Kind.REDUCE_SCATTER, Kind.BROADCAST, Kind.REDUCE)) {
            assertNull(P2pPlan.of(k, 8, 0, 0, 2), k.toString());
        }
    }
}
