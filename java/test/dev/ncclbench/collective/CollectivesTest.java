package dev.ncclbench.collective;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every collective against nccl-tests' getCollByteCount and GetBw, written out again here from
 * NCCL-FACTS section 1 so that a slip in one place cannot hide in the other.
 */
class CollectivesTest {
    private static final int[] RANKS = {1, 2, 3, 4, 8};
    private static final int[] ELEMENT_BYTES = {1, 2, 4, 8};
    private static final long[] COUNTS = {0, 1, 2, 7, 8, 15, 16, 17, 31, 33, 100, 1000, 4097, 65536, (1 << 20) + 3,
            (1L << 31) + 5};

    private static final Set<String> GATHER_LIKE = Set.of("all_gather", "reduce_scatter", "alltoall", "gather", "scatter");

    /** nccl-tests: base = (count / nranks) & -(16 / eltSize). */
    private static long base(long count, int eb, int n) {
        return (count / n) & -(16L / eb);
    }

    private static Counts expectedCounts(Kind kind, long count, int eb, int n) {
        long b = base(count, eb, n);
        return switch (kind) {
            case ALL_REDUCE, BROADCAST, REDUCE, SENDRECV -> new Counts(count, count, count, 0, 0);
            case ALL_GATHER, GATHER -> new Counts(b, b * n, b, b, 0);
            case REDUCE_SCATTER, SCATTER -> new Counts(b * n, b, b, 0, b);
            case ALLTOALL -> new Counts(b * n, b * n, b, 0, 0);
            case HYPERCUBE -> new Counts(b, b * n, b, b, 0);
            case ALLTOALLV -> {
                // alltoallv.cu, spread 1: peer at distance d gets d x total / (n(n-1)/2) bytes, down to 16; n = 1 all
                long total = b * n * eb;
                long each = 0;
                for (int d = 0; d < n; d++) {
                    long bytes = n == 1 ? total & ~15L : (long) ((double) d * total / ((long) n * (n - 1) / 2)) & ~15L;
                    each += bytes / eb;
                }
                yield new Counts(each, each, b, 0, 0);
            }
        };
    }

    private static double expectedFactor(Kind kind, int n) {
        return switch (kind) {
            case ALL_REDUCE -> 2.0 * (n - 1) / n;
            case ALL_GATHER, REDUCE_SCATTER, ALLTOALL, GATHER, SCATTER, ALLTOALLV -> (double) (n - 1) / n;
            case BROADCAST, REDUCE, SENDRECV, HYPERCUBE -> 1.0;
        };
    }

    @Test
    void everyKindHasOneCollectiveNamedByItsLabel() {
        for (Kind k : Kind.values()) {
            List<Collective> of = Collectives.all().stream().filter(c -> c.kind() == k).toList();
            assertEquals(1, of.size(), k.toString());
            assertEquals(k.label(), of.get(0).name());
            assertSame(of.get(0), Collectives.byName(k.label()));
        }
        assertEquals(Kind.values().length, Collectives.all().size());
    }

    @Test
    void theRegistryHoldsTheElevenNcclTestsCollectivesInOrder() {
        assertEquals(List.of("all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "alltoall", "sendrecv",
                "gather", "scatter", "alltoallv", "hypercube"), Collectives.names());
        for (Collective c : Collectives.all()) {
            assertEquals(Set.of("all_reduce", "reduce_scatter", "reduce").contains(c.name()), c.reduces(), c.name());
            assertEquals(Set.of("broadcast", "reduce", "gather", "scatter").contains(c.name()), c.rooted(), c.name());
        }
    }

    @Test
    void countsFollowGetCollByteCountForEveryCollectiveRankCountAndElementSize() {
        for (Collective c : Collectives.all()) {
            for (int n : RANKS) {
                for (int eb : ELEMENT_BYTES) {
                    for (long count : COUNTS) {
                        String where = c.name() + " n=" + n + " elt=" + eb + " count=" + count;
                        Counts got = c.counts(count, eb, n);
                        Counts want = expectedCounts(c.kind(), count, eb, n);
                        assertEquals(want, got, where);
                        if (GATHER_LIKE.contains(c.name())) {
                            assertEquals(0, got.paramCount() * eb % 16, "per-rank block is a multiple of 16 bytes: " + where);
                            assertTrue(got.paramCount() <= count / n, where);
                            assertTrue(count / n - got.paramCount() < Math.max(1, 16 / eb), where);
                        }
                    }
                }
            }
        }
    }

    @Test
    void sixteenByteRoundingPerElementSize() {
        // count 100 over 3 ranks: 33 elements each before rounding
        assertEquals(32, Collective.perRank(100, 1, 3));  // multiple of 16 elements
        assertEquals(32, Collective.perRank(100, 2, 3));  // multiple of 8
        assertEquals(32, Collective.perRank(100, 4, 3));  // multiple of 4
        assertEquals(32, Collective.perRank(100, 8, 3));  // multiple of 2
        // 1 MiB of float over 3 ranks: 262144 / 3 = 87381 -> 87380
        assertEquals(87380, Collective.perRank(262144, 4, 3));
        // 1 MiB of int8 over 3 ranks: 1048576 / 3 = 349525 -> 349520
        assertEquals(349520, Collective.perRank(1 << 20, 1, 3));
        // 1 MiB of double over 3 ranks: 131072 / 3 = 43690 (already even)
        assertEquals(43690, Collective.perRank(131072, 8, 3));
        // too small to give each rank 16 bytes: nothing
        assertEquals(0, Collective.perRank(7, 4, 2));
        assertEquals(0, Collective.perRank(8, 1, 1));
    }

    @Test
    void sizeColumnIsTheLargerOfSendAndReceiveBytes() {
        for (Collective c : Collectives.all()) {
            for (int n : RANKS) {
                for (DataType t : DataType.values()) {
                    for (long size : new long[] {8, 96, 1000, 1 << 20, 3L << 20}) {
                        long count = size / t.bytes();
                        Counts got = c.counts(count, t.bytes(), n);
                        Counts want = expectedCounts(c.kind(), count, t.bytes(), n);
                        assertEquals(Math.max(want.sendCount(), want.recvCount()) * t.bytes(), got.sizeBytes(t),
                                c.name() + " n=" + n + " " + t.label() + " size=" + size);
                    }
                }
            }
        }
        // examples: all_gather of 1 MiB float on 3 ranks prints 87380 x 3 x 4 bytes
        assertEquals(87380L * 3 * 4, Collectives.byName("all_gather").counts(262144, 4, 3).sizeBytes(DataType.FLOAT));
        assertEquals(1L << 20, Collectives.byName("all_reduce").counts(262144, 4, 3).sizeBytes(DataType.FLOAT));
    }

    @Test
    void busbwFactorsAndAlgbwBytes() {
        for (Collective c : Collectives.all()) {
            for (int n : RANKS) {
                String where = c.name() + " n=" + n;
                assertEquals(expectedFactor(c.kind(), n), c.busbwFactor(n), 0.0, where);
                int ranksOfBytes = GATHER_LIKE.contains(c.name()) ? n : c.kind() == Kind.HYPERCUBE ? n - 1 : 1;
                assertEquals(ranksOfBytes, c.algBytesRanks(n), where);
                for (int eb : ELEMENT_BYTES) {
                    Counts counts = c.counts(1 << 20, eb, n);
                    double seconds = 1.25e-3;
                    // hypercube.cu: count x (n-1); alltoallv.cu: the larger of a rank's send and receive totals
                    double bytes = c.kind() == Kind.ALLTOALLV ? (double) Math.max(counts.sendCount(), counts.recvCount()) * eb
                            : (double) counts.paramCount() * eb * ranksOfBytes;
                    double algbw = bytes / 1.0e9 / seconds;
                    assertEquals(algbw, c.algbw(counts, eb, n, seconds), 0.0, where);
                    assertEquals(algbw * expectedFactor(c.kind(), n), c.busbw(counts, eb, n, seconds), 0.0, where);
                }
            }
        }
    }

    @Test
    void allReduceBusbwIsAlgbwTimesTwoNMinusOneOverN() {
        Collective ar = Collectives.byName("all_reduce");
        assertEquals(1.5, ar.busbwFactor(4), 0.0);
        assertEquals(1.0, ar.busbwFactor(2), 0.0);
        assertEquals(1.75, ar.busbwFactor(8), 0.0);
        assertEquals(0.0, ar.busbwFactor(1), 0.0, "nccl-tests: one rank moves nothing over the bus");
        // nccl-tests' sample row: 32768 B all_reduce in 18.66 us is 1.76 GB/s algbw
        Counts c = ar.counts(8192, 4, 8);
        assertEquals(1.756, ar.algbw(c, 4, 8, 18.66e-6), 0.001);
        assertEquals(1.756 * 1.75, ar.busbw(c, 4, 8, 18.66e-6), 0.002);
    }

    @ParameterizedTest
    @ValueSource(strings = {"all_reduce", "ALL_REDUCE", "all_reduce_perf", "allreduce", "all-reduce", " all_reduce "})
    void namesAndBinaryNamesAreAccepted(String name) {
        assertNotNull(Collectives.byName(name));
        assertEquals("all_reduce", Collectives.byName(name).name());
    }

    @Test
    void parseListAndUnknownNames() {
        assertEquals(9, Collectives.parseList("all").size());
        assertEquals(List.of("broadcast", "all_gather"),
                Collectives.parseList("broadcast,all_gather,broadcast").stream().map(Collective::name).toList());
        assertNull(Collectives.byName("nope"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Collectives.parseList("all_reduce,nope"));
        assertTrue(e.getMessage().contains("'nope'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Collectives.parseList(" , "));
    }

    @Test
    void whereEachOutputElementComesFrom() {
        int n = 4;
        int root = 2;
        Counts ag = Collectives.byName("all_gather").counts(64, 4, n);  // 16 per rank
        assertEquals(Collective.at(1, 3), Collectives.byName("all_gather").source(0, 16 + 3, ag, n, root));
        Counts a2a = Collectives.byName("alltoall").counts(64, 4, n);
        // block s of rank r's output is block r of rank s's input
        assertEquals(Collective.at(3, 1 * 16 + 5), Collectives.byName("alltoall").source(1, 3 * 16 + 5, a2a, n, root));
        Counts same = Counts.same(10);
        assertEquals(Collective.at(root, 7), Collectives.byName("broadcast").source(0, 7, same, n, root));
        assertEquals(Collective.at(3, 7), Collectives.byName("sendrecv").source(0, 7, same, n, root));
        assertEquals(Collective.UNCHECKED, Collectives.byName("reduce").source(0, 7, same, n, root));
        assertEquals(Collective.REDUCED, Collectives.byName("reduce").source(root, 7, same, n, root));
        Counts sc = Collectives.byName("scatter").counts(64, 4, n);
        assertEquals(Collective.at(root, 3 * 16 + 2), Collectives.byName("scatter").source(3, 2, sc, n, root));
        Counts rs = Collectives.byName("reduce_scatter").counts(64, 4, n);
        assertEquals(2 * 16 + 5, Collectives.byName("reduce_scatter").reducedIndex(2, 5, rs, n));
        assertTrue(Collectives.byName("gather").hasOutput(root, root));
        assertTrue(!Collectives.byName("gather").hasOutput(0, root));
    }
}
