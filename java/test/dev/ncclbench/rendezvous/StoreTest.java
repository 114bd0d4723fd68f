package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The rendezvous store over real sockets on 127.0.0.1, one thread per rank. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StoreTest {
    private static final byte[] TOKEN = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OTHER = "fedcba9876543210".getBytes(StandardCharsets.US_ASCII);

    private static StoreServer server(int nranks, long timeoutMillis) throws Exception {
        return new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, nranks, timeoutMillis);
    }

    private static InetSocketAddress at(StoreServer s) {
        return new InetSocketAddress("127.0.0.1", s.port());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void gatherAcrossThreads() throws Exception {
        int n = 4;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (StoreServer server = server(n, 10_000)) {
            List<Future<List<byte[][]>>> results = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                results.add(pool.submit(() -> {
                    try (StoreClient c = StoreClient.connect(at(server), TOKEN, rank, n, 10_000)) {
                        assertEquals(rank, c.rank());
                        assertEquals(n, c.nranks());
                        List<byte[][]> rounds = new ArrayList<>();
                        for (int round = 0; round < 20; round++) {
                            rounds.add(c.allGather("round" + round, bytes("r" + rank + "/" + round)));
                        }
                        c.barrier("end");
                        rounds.add(new byte[][] {c.broadcast("bc", bytes("from " + rank), 2)});
                        return rounds;
                    }
                }));
            }
            for (Future<List<byte[][]>> f : results) {
                List<byte[][]> rounds = f.get(30, TimeUnit.SECONDS);
                for (int round = 0; round < 20; round++) {
                    byte[][] all = rounds.get(round);
                    assertEquals(n, all.length);
                    for (int r = 0; r < n; r++) {
                        assertArrayEquals(bytes("r" + r + "/" + round), all[r]);
                    }
                }
                assertArrayEquals(bytes("from 2"), rounds.get(20)[0]);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A port that refuses connections and that nothing else can take while held: bound, never listening. */
    static Socket refusingPort() throws Exception {
        Socket holder = new Socket();
        holder.bind(new InetSocketAddress("127.0.0.1", 0));
        return holder;
    }

    @Test
    void aClientRetriesUntilTheStoreIsUp() throws Exception {
        Socket holder = refusingPort();
        int port = holder.getLocalPort();
        java.util.concurrent.atomic.AtomicReference<Object> result = new java.util.concurrent.atomic.AtomicReference<>();
        Thread client = new Thread(() -> {
            try (StoreClient c = StoreClient.connect(new InetSocketAddress("127.0.0.1", port), TOKEN, 0, 1, 20_000)) {
                result.set(c.allGather("t", bytes("x")));
            } catch (RuntimeException e) {
                result.set(e);
            }
        });
        client.start();
        // the client was refused and waits to try again: only then does the store come up
        while (client.getState() != Thread.State.TIMED_WAITING && client.isAlive()) {
            Thread.onSpinWait();
        }
        holder.close();
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", port), TOKEN, 1, 10_000)) {
            client.join(20_000);
            assertTrue(result.get() instanceof byte[][], "connected once the store was up: " + result.get());
            assertArrayEquals(bytes("x"), ((byte[][]) result.get())[0]);
        }
    }

    @Test
    void aWrongTokenIsRefusedWithAClearMessage() throws Exception {
        try (StoreServer server = server(2, 10_000)) {
            NcclbenchException e = assertThrows(NcclbenchException.class,
                    () -> StoreClient.connect(at(server), OTHER, 1, 2, 5_000));
            assertTrue(e.getMessage().contains("wrong job token"), e.getMessage());
            assertTrue(e.getMessage().contains("refused rank 1"), e.getMessage());
            assertEquals(ExitCode.USAGE, e.exitCode());
        }
    }

    @Test
    void aRankThatDoesNotFitTheJobIsRefused() throws Exception {
        try (StoreServer server = server(2, 10_000)) {
            NcclbenchException e = assertThrows(NcclbenchException.class,
                    () -> StoreClient.connect(at(server), TOKEN, 0, 3, 5_000));
            assertTrue(e.getMessage().contains("does not fit a job of 2 ranks"), e.getMessage());
            e = assertThrows(NcclbenchException.class, () -> StoreClient.connect(at(server), TOKEN, 2, 2, 5_000));
            assertTrue(e.getMessage().contains("rank 2 of 2"), e.getMessage());
            try (StoreClient first = StoreClient.connect(at(server), TOKEN, 1, 2, 5_000)) {
                e = assertThrows(NcclbenchException.class, () -> StoreClient.connect(at(server), TOKEN, 1, 2, 5_000));
                assertTrue(e.getMessage().contains("rank 1 is already connected"), e.getMessage());
            }
        }
    }

    @Test
    void aRankThatDisconnectsWithoutByeFailsTheOthersGatherNamingIt() throws Exception {
        int n = 3;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (StoreServer server = server(n, 30_000)) {
            List<Future<NcclbenchException>> waiting = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int rank = r;
                waiting.add(pool.submit(() -> {
                    try (StoreClient c = StoreClient.connect(at(server), TOKEN, rank, n, 30_000)) {
                        c.allGather("step", bytes("x"));
                        fail("the gather cannot complete without rank 2");
                        return null;
                    } catch (NcclbenchException e) {
                        return e;
                    }
                }));
            }
            long t0 = System.nanoTime();
            // whether the others are already waiting or arrive after the loss, their gather fails naming rank 2
            RawHello.connectAndVanish(at(server), TOKEN, 2, 1, n);
            for (Future<NcclbenchException> f : waiting) {
                NcclbenchException e = f.get(20, TimeUnit.SECONDS);
                assertTrue(e.getMessage().contains("rank 2 lost"), e.getMessage());
                assertEquals(ExitCode.RUN_FAILED, e.exitCode(), e.getMessage());
            }
            assertTrue(System.nanoTime() - t0 < 15_000_000_000L, "failed fast, not at the timeout");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRankLostBeforeAGatherFailsThatGatherToo() throws Exception {
        try (StoreServer server = server(2, 30_000)) {
            RawHello.connectAndVanish(at(server), TOKEN, 1, 1, 2);
            try (StoreClient c = StoreClient.connect(at(server), TOKEN, 0, 2, 5_000)) {
                NcclbenchException e = assertThrows(NcclbenchException.class, () -> c.allGather("later", bytes("x")));
                assertTrue(e.getMessage().contains("rank 1 lost"), e.getMessage());
            }
        }
    }

    @Test
    void aRankThatSaysByeIsNotLost() throws Exception {
        int n = 2;
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (StoreServer server = server(n, 2_000)) {
            Future<byte[][]> one = pool.submit(() -> {
                try (StoreClient c = StoreClient.connect(at(server), TOKEN, 1, n, 5_000)) {
                    return c.allGather("a", bytes("1"));
                }
            });
            try (StoreClient c = StoreClient.connect(at(server), TOKEN, 0, n, 5_000)) {
                c.allGather("a", bytes("0"));
                one.get(10, TimeUnit.SECONDS);
                // rank 1 left politely (whether or not the store has read its goodbye yet): the next gather times
                // out naming it, it is not "lost"
                NcclbenchException e = assertThrows(NcclbenchException.class, () -> c.allGather("b", bytes("0")));
                assertTrue(!e.getMessage().contains("lost"), e.getMessage());
                assertTrue(e.getMessage().contains("rank 1 did not reach 'b' within 2 s"), e.getMessage());
                assertEquals(ExitCode.TIMEOUT, e.exitCode());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTimeoutNamesTheMissingRanks() throws Exception {
        int n = 4;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<StoreClient> idle = new ArrayList<>();
        try (StoreServer server = server(n, 700)) {
            // ranks 1 and 3 are connected but never arrive
            idle.add(StoreClient.connect(at(server), TOKEN, 1, n, 5_000));
            idle.add(StoreClient.connect(at(server), TOKEN, 3, n, 5_000));
            List<Future<NcclbenchException>> waiting = new ArrayList<>();
            for (int rank : new int[] {0, 2}) {
                waiting.add(pool.submit(() -> {
                    try (StoreClient c = StoreClient.connect(at(server), TOKEN, rank, n, 5_000)) {
                        return assertThrows(NcclbenchException.class, () -> c.allGather("sizes/8", bytes("x")));
                    }
                }));
            }
            for (Future<NcclbenchException> f : waiting) {
                NcclbenchException e = f.get(20, TimeUnit.SECONDS);
                assertEquals(ExitCode.TIMEOUT, e.exitCode(), e.getMessage());
                assertTrue(e.getMessage().contains("ranks 1 and 3 did not reach 'sizes/8' within 0.7 s"), e.getMessage());
            }
        } finally {
            idle.forEach(StoreClient::close);
            pool.shutdownNow();
        }
    }

    @Test
    void noStoreIsATimeoutThatSaysWhere() throws Exception {
        try (Socket holder = refusingPort()) {
            int port = holder.getLocalPort();
            NcclbenchException e = assertThrows(NcclbenchException.class,
                    () -> StoreClient.connect(new InetSocketAddress("127.0.0.1", port), TOKEN, 3, 4, 600));
            assertEquals(ExitCode.TIMEOUT, e.exitCode());
            assertTrue(e.getMessage().contains("rank 3 could not reach the rendezvous store at 127.0.0.1:" + port), e.getMessage());
        }
    }

    @Test
    void aStoreThatGoesAwayIsRankZeroLost() throws Exception {
        StoreServer server = server(2, 30_000);
        try (StoreClient c = StoreClient.connect(at(server), TOKEN, 1, 2, 5_000)) {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<NcclbenchException> f = pool.submit(() -> assertThrows(NcclbenchException.class,
                        () -> c.allGather("x", bytes("1"))));
                // whether the gather is under way or not yet sent when the store closes, it fails
                server.close();
                NcclbenchException e = f.get(20, TimeUnit.SECONDS);
                assertTrue(e.getMessage().contains("closed") || e.getMessage().contains("rank 0 lost"), e.getMessage());
                assertTrue(e.exitCode() == ExitCode.RUN_FAILED || e.exitCode() == ExitCode.TIMEOUT, e.exitCode().toString());
            } finally {
                pool.shutdownNow();
            }
        } finally {
            server.close();
        }
    }

    @Test
    void payloadsOfDifferentSizesIncludingEmpty() throws Exception {
        int n = 2;
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (StoreServer server = server(n, 10_000)) {
            byte[] big = new byte[1 << 20];
            Arrays.fill(big, (byte) 7);
            Future<byte[][]> other = pool.submit(() -> {
                try (StoreClient c = StoreClient.connect(at(server), TOKEN, 1, n, 5_000)) {
                    return c.allGather("p", big);
                }
            });
            try (StoreClient c = StoreClient.connect(at(server), TOKEN, 0, n, 5_000)) {
                byte[][] all = c.allGather("p", new byte[0]);
                assertEquals(0, all[0].length);
                assertArrayEquals(big, all[1]);
            }
            assertEquals(0, other.get(10, TimeUnit.SECONDS)[0].length);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aHungRankIsNamedByEverySurvivorWhateverTheyBlamed() throws Exception {
        int n = 3;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (StoreServer server = server(n, 700);
             StoreClient hung = StoreClient.connect(at(server), TOKEN, 2, n, 5_000)) {
            // rank 0 blames its neighbour rank 1 (a cascade), rank 1 blames rank 2: the store knows better
            List<Future<NcclbenchException>> verdicts = new ArrayList<>();
            for (int rank : new int[] {0, 1}) {
                verdicts.add(pool.submit(() -> {
                    try (StoreClient c = StoreClient.connect(at(server), TOKEN, rank, n, 5_000)) {
                        return c.fault(false, ExitCode.TIMEOUT, "#3 all_reduce 4 MiB out-of-place",
                                "rank " + (rank + 1) + " did not reach '#3 all_reduce 4 MiB out-of-place' within 0.7 s");
                    }
                }));
            }
            for (Future<NcclbenchException> f : verdicts) {
                NcclbenchException e = f.get(20, TimeUnit.SECONDS);
                assertEquals(ExitCode.TIMEOUT, e.exitCode(), e.getMessage());
                assertTrue(e.getMessage().startsWith("rank 2 did not reach '#3 all_reduce 4 MiB out-of-place' within 0.7 s"),
                        e.getMessage());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Rank 2 hangs mid-call; rank 1 finished the call and waits in the results gather; rank 0 waits on rank 2 in the
     * data plane, and its watchdog reports a little after the gather's own timeout. The verdict names rank 2 only.
     */
    @Test
    void aRankThatWaitsOnTheHungOneInTheDataPlaneIsNotNamedWithIt() throws Exception {
        int n = 3;
        long timeout = 700;
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try (StoreServer server = server(n, timeout);
             StoreClient hung = StoreClient.connect(at(server), TOKEN, 2, n, 5_000);
             StoreClient waiting = StoreClient.connect(at(server), TOKEN, 0, n, 5_000)) {
            long sent = System.nanoTime();
            Future<NcclbenchException> gather = pool.submit(() -> {
                try (StoreClient c = StoreClient.connect(at(server), TOKEN, 1, n, 5_000)) {
                    return assertThrows(NcclbenchException.class, () -> c.allGather("#9 all_reduce 2 MiB: results", bytes("x")));
                }
            });
            // rank 0's watchdog: past the gather's timeout, well inside its grace (not a synchronisation: the order
            // of the two is the scenario, and the grace leaves 0.9 s of slack)
            long report = sent + TimeUnit.MILLISECONDS.toNanos(timeout + 100);
            while (System.nanoTime() < report) {
                Thread.sleep(5);
            }
            NcclbenchException mine = waiting.fault(false, ExitCode.TIMEOUT, "#9 all_reduce 2 MiB",
                    "rank 2 did not reach '#9 all_reduce 2 MiB' within 0.7 s");
            NcclbenchException theirs = gather.get(20, TimeUnit.SECONDS);
            for (NcclbenchException e : List.of(mine, theirs)) {
                assertEquals(ExitCode.TIMEOUT, e.exitCode(), e.getMessage());
                assertTrue(e.getMessage().startsWith("rank 2 did not reach '"), e.getMessage());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRankThatFailsByItselfStopsTheOthersAtOnceWithItsExitCode() throws Exception {
        int n = 2;
        ExecutorService pool = Executors.newSingleThreadExecutor();
        // a store timeout far beyond the class's @Timeout: only an immediate answer passes
        try (StoreServer server = server(n, 600_000)) {
            Future<NcclbenchException> waiting = pool.submit(() -> {
                try (StoreClient c = StoreClient.connect(at(server), TOKEN, 1, n, 5_000)) {
                    return assertThrows(NcclbenchException.class, () -> c.allGather("#7 all_reduce 512 MiB", bytes("x")));
                }
            });
            try (StoreClient c = StoreClient.connect(at(server), TOKEN, 0, n, 5_000)) {
                NcclbenchException mine = c.fault(true, ExitCode.ENVIRONMENT, "#7 all_reduce 512 MiB",
                        "rank 0 ran out of memory at 512 MiB");
                assertEquals(ExitCode.ENVIRONMENT, mine.exitCode());
                NcclbenchException e = waiting.get(30, TimeUnit.SECONDS);
                assertEquals(ExitCode.ENVIRONMENT, e.exitCode(), "the code travels on the wire: " + e.getMessage());
                assertEquals("rank 0 ran out of memory at 512 MiB", e.getMessage());
                // and every later gather gets the same verdict
                NcclbenchException later = assertThrows(NcclbenchException.class, () -> c.allGather("later", bytes("x")));
                assertEquals("rank 0 ran out of memory at 512 MiB", later.getMessage());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theRankLostFirstStaysTheOneNamed() throws Exception {
        try (StoreServer server = server(3, 600_000);
             StoreClient c = StoreClient.connect(at(server), TOKEN, 0, 3, 5_000)) {
            RawHello.connectAndVanish(at(server), TOKEN, 2, 1, 3);
            NcclbenchException first = assertThrows(NcclbenchException.class, () -> c.allGather("a", bytes("x")));
            assertTrue(first.getMessage().startsWith("rank 2 lost"), first.getMessage());
            RawHello.connectAndVanish(at(server), TOKEN, 1, 1, 3);
            NcclbenchException again = c.fault(false, ExitCode.RUN_FAILED, "b", "rank 0: lost rank 1 during b");
            assertEquals(first.getMessage(), again.getMessage(), "a cascade does not change who died first");
            assertEquals(ExitCode.RUN_FAILED, again.exitCode());
        }
    }
}
