package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Who gets what of a gather (rank 0 only, a broadcast, a barrier), and one job one set of flags, over real sockets. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GatherModesTest {
    private static final byte[] TOKEN = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void onlyTheRootGetsTheFiguresAndTheStoreCountsIt() throws Exception {
        int n = 4;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, 10_000)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            List<Future<byte[][]>> got = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                got.add(pool.submit(() -> {
                    try (StoreClient c = StoreClient.connect(at, TOKEN, rank, n, 10_000)) {
                        c.barrier("start");
                        byte[][] all = c.gather("results", bytes("figures of " + rank), 0);
                        byte[] folder = c.broadcast("folder", bytes(rank == 0 ? "run-1" : "ignored"), 0);
                        assertArrayEquals(bytes("run-1"), folder);
                        return all;
                    }
                }));
            }
            byte[][] atRoot = got.get(0).get(20, TimeUnit.SECONDS);
            for (int r = 0; r < n; r++) {
                assertArrayEquals(bytes("figures of " + r), atRoot[r]);
            }
            for (int r = 1; r < n; r++) {
                assertNull(got.get(r).get(20, TimeUnit.SECONDS), "rank " + r + " gets no figures");
            }
            long[] t = server.traffic().snapshot();
            assertTrue(t[2] > 0 && t[1] > t[2], "the store counted what it sent rank 0 and the others: " + t[2] + " of " + t[1]);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRankStartedWithOtherFlagsStopsTheJobNamingTheFlagAndBothRanks() throws Exception {
        int n = 3;
        ExecutorService pool = Executors.newSingleThreadExecutor();
        // a timeout far beyond the class's: only an immediate verdict passes
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, 600_000)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            String mine = "--collective all_reduce\n-b 8\n-d float\n-n 20";
            try (StoreClient zero = StoreClient.connect(at, TOKEN, 0, n, 10_000, mine)) {
                Future<NcclbenchException> waiting = pool.submit(() -> assertThrows(NcclbenchException.class,
                        () -> zero.allGather("run-folder", bytes("x"))));
                NcclbenchException refused = assertThrows(NcclbenchException.class, () -> StoreClient.connect(at, TOKEN, 2, n,
                        10_000, "--collective all_reduce\n-b 8\n-d double\n-n 5"));
                assertEquals(ExitCode.USAGE, refused.exitCode(), refused.getMessage());
                assertTrue(refused.getMessage().contains("rank 2 was started with other flags than rank 0: -d double on rank 2,"
                        + " -d float on rank 0 (also -n)"), refused.getMessage());
                // a rank that comes later with the job's flags hears the verdict at its first gather
                try (StoreClient one = StoreClient.connect(at, TOKEN, 1, n, 10_000, mine)) {
                    NcclbenchException late = assertThrows(NcclbenchException.class, () -> one.barrier("run-folder"));
                    assertEquals(refused.getMessage(), late.getMessage());
                }
                NcclbenchException e = waiting.get(20, TimeUnit.SECONDS);
                assertEquals(ExitCode.USAGE, e.exitCode(), e.getMessage());
                assertEquals(refused.getMessage(), e.getMessage(), "every rank gets the same verdict");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void eachRankGetsOnlyThePeersItAsksForInItsOrder() throws Exception {
        int n = 16;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, 10_000)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            List<Future<byte[][]>> got = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                // the ring's neighbours, the next neighbour first; rank 3 asks none
                int[] peers = rank == 3 ? new int[0] : new int[] {(rank + 1) % n, (rank + n - 1) % n};
                got.add(pool.submit(() -> {
                    try (StoreClient c = StoreClient.connect(at, TOKEN, rank, n, 10_000)) {
                        byte[][] mine = c.fromPeers("socket/addresses", bytes("10.0.0." + rank + ":5000" + rank % 10), peers);
                        // every answer of the lookup is counted before this barrier's requests are read
                        c.barrier("counted");
                        return mine;
                    }
                }));
            }
            for (int r = 0; r < n; r++) {
                byte[][] mine = got.get(r).get(20, TimeUnit.SECONDS);
                if (r == 3) {
                    assertEquals(0, mine.length);
                    continue;
                }
                int next = (r + 1) % n;
                int prev = (r + n - 1) % n;
                assertArrayEquals(bytes("10.0.0." + next + ":5000" + next % 10), mine[0], "rank " + r + "'s next");
                assertArrayEquals(bytes("10.0.0." + prev + ":5000" + prev % 10), mine[1], "rank " + r + "'s previous");
            }
            // hello's and the flags' OK, then the answer's frame (rank, length), OK, the count and the two payloads
            // asked, each after its length: nobody else's; then the barrier's release (16 bytes with its frame), which
            // may still be on its way to the count
            long[] byRank = server.traffic().bytesOutByRank();
            for (int r = 0; r < n; r++) {
                long due = 4 + 4 + 8 + 8 + (r == 3 ? 0 : 8 + bytes("10.0.0." + (r + 1) % n + ":5000" + (r + 1) % n % 10).length
                        + bytes("10.0.0." + (r + n - 1) % n + ":5000" + (r + n - 1) % n % 10).length);
                assertTrue(byRank[r] == due || byRank[r] == due + 16, "bytes the store sent rank " + r + ": " + byRank[r]
                        + ", not " + due + " (+ 16)");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRankThatNeverPublishesIsNamedByTheOthers() throws Exception {
        int n = 3;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, 1_000)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            try (StoreClient hung = StoreClient.connect(at, TOKEN, 2, n, 10_000)) {
                List<Future<NcclbenchException>> got = new ArrayList<>();
                for (int r = 0; r < 2; r++) {
                    int rank = r;
                    got.add(pool.submit(() -> {
                        try (StoreClient c = StoreClient.connect(at, TOKEN, rank, n, 10_000)) {
                            return assertThrows(NcclbenchException.class,
                                    () -> c.fromPeers("socket/addresses", bytes("a" + rank), new int[] {2}));
                        }
                    }));
                }
                for (Future<NcclbenchException> f : got) {
                    NcclbenchException e = f.get(20, TimeUnit.SECONDS);
                    assertEquals(ExitCode.TIMEOUT, e.exitCode(), e.getMessage());
                    assertTrue(e.getMessage().contains("rank 2") && e.getMessage().contains("socket/addresses"), e.getMessage());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
