package dev.ncclbench.collective;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** alltoallv.cu's generated pattern: NCCL_TESTS_ALLTOALLV_SPREAD, per-peer bytes, balanced totals, where data lands. */
class AllToAllVTest {
    @Test
    void spreadIsReadAsNcclTestsReadsItAndClamped() {
        assertEquals(1.0, AllToAllV.spreadOf(null), 0.0);
        assertEquals(0.25, AllToAllV.spreadOf("0.25"), 0.0);
        assertEquals(1.0, AllToAllV.spreadOf("abc"), 0.0, "not a number: the default");
        assertEquals(1.0, AllToAllV.spreadOf("7"), 0.0, "clamped to 1");
        assertEquals(0.0, AllToAllV.spreadOf("-3"), 0.0, "clamped to 0");
    }

    /** README of alltoallv.cu: spread 0 is uniform (every peer the same), spread 1 grows with the distance, none to self. */
    @Test
    void uniformAndDistanceWeightedShares() {
        AllToAllV uniform = new AllToAllV(0.0);
        AllToAllV weighted = new AllToAllV(1.0);
        long total = 4096;
        for (int j = 0; j < 4; j++) {
            assertEquals(1024, uniform.peerBytes(0, j, 4, total));
        }
        // d x 4096 / 6 rounded down to 16: 0, 672, 1360, 2048
        assertEquals(0, weighted.peerBytes(2, 2, 4, total));
        assertEquals(672, weighted.peerBytes(2, 3, 4, total));
        assertEquals(1360, weighted.peerBytes(2, 0, 4, total));
        assertEquals(2048, weighted.peerBytes(2, 1, 4, total));
    }

    /** Every rank sends and receives the same total, and every output element has exactly one source element. */
    @Test
    void everyRankReceivesEachSourcesSegmentInOrder() {
        AllToAllV c = new AllToAllV(1.0);
        for (int n : new int[] {1, 2, 3, 5, 8}) {
            Counts counts = c.counts(1000L * n, 4, n);
            for (int rank = 0; rank < n; rank++) {
                long received = 0;
                long sent = 0;
                for (int p = 0; p < n; p++) {
                    received += c.peerCount(p, rank, counts, n, 4);
                    sent += c.peerCount(rank, p, counts, n, 4);
                }
                assertEquals(counts.recvCount(), received, "n=" + n + " rank " + rank);
                assertEquals(counts.sendCount(), sent, "n=" + n + " rank " + rank);
                long[] cuts = c.segments(rank, counts, n, 4);
                for (int src = 0; src < n; src++) {
                    if (cuts[src + 1] > cuts[src]) {
                        long first = c.source(rank, cuts[src], counts, n, 0, 4);
                        assertEquals(src, (int) (first >>> 32));
                        assertEquals(c.sendOffset(src, rank, counts, n, 4), first & 0xFFFFFFFFL);
                    }
                }
            }
        }
        assertTrue(c.counts(64 * 4, 4, 4).sizeBytes(DataType.FLOAT) < 64 * 4 * 4, "the 16-byte rounding loses a little");
    }
}
