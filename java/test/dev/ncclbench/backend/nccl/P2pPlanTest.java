package dev.ncclbench.backend.nccl;

import dev.ncclbench.backend.nccl.P2pPlan.Transfer;
import dev.ncclbench.collective.AllToAllVPattern;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.Kind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The send/recv sets nccl-tests v2.19.6 groups (sendrecv.cu, alltoall.cu, gather.cu, scatter.cu), rank by rank. */
class P2pPlanTest {
    /** Block {@code block} of the count-8 buffers these tests plan. */
    private static Transfer send(int peer, int block) {
        return new Transfer(true, peer, block * 8L, 8);
    }

    private static Transfer recv(int peer, int block) {
        return new Transfer(false, peer, block * 8L, 8);
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

    /** hypercube.cu on 4 ranks, rank 1: its block into place, then step 1 with rank 0 (block 1 out, block 0 in), step 2
     * with rank 3 (blocks 0-1 out, blocks 2-3 in), each step its own group. */
    @Test
    void hypercubeExchangesWhatItGatheredWithRankXorMaskOneGroupPerStep() {
        P2pPlan plan = P2pPlan.of(Kind.HYPERCUBE, 8, 0, 1, 4);
        assertEquals(new Transfer(false, 1, 8, 8), plan.localCopy());
        assertEquals(List.of(List.of(send(0, 1), recv(0, 0)),
                List.of(new Transfer(true, 3, 0, 16), new Transfer(false, 3, 16, 16))), plan.groups());
    }

    /** alltoallv.cu: per peer a send and a recv of the pattern's counts, packed in peer order, none of 0 elements. */
    @Test
    void alltoallvPacksEachPeersCountsInPeerOrderAndSkipsEmptyOnes() {
        // spread 1 (the default) on 4 ranks, 64 floats a peer: distance d gets d x 1024 / 6 bytes rounded down to 16
        // (0, 160, 336, 512 B: 0, 40, 84, 128 floats)
        AllToAllVPattern pattern = AllToAllVPattern.of(Collectives.byName("alltoallv"), 64, 4, 4);
        List<Transfer> t = P2pPlan.of(Kind.ALLTOALLV, 64, 0, 0, 4, pattern).transfers();
        // rank 0 sends nothing to itself (distance 0) and receives nothing from itself
        assertEquals(List.of(new Transfer(true, 1, 0, 40), new Transfer(false, 1, 0, 128),
                new Transfer(true, 2, 40, 84), new Transfer(false, 2, 128, 84),
                new Transfer(true, 3, 124, 128), new Transfer(false, 3, 212, 40)), t);
    }
}
