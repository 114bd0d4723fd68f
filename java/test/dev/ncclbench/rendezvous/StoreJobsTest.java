package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One store serving several jobs at once (fleet's groups of a round), over real sockets on 127.0.0.1. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StoreJobsTest {
    private static final byte[] A = "job-A-0123456789".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] B = "job-B-0123456789".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UNKNOWN = "job-C-0123456789".getBytes(StandardCharsets.US_ASCII);

    private static InetSocketAddress at(StoreServer s) {
        return new InetSocketAddress("127.0.0.1", s.port());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Both ranks of a 2-rank job gather {@code rounds} times; every gather must complete. */
    private static List<Future<Object>> pair(ExecutorService pool, StoreServer server, byte[] token, int rounds) {
        List<Future<Object>> out = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            int rank = r;
            out.add(pool.submit(() -> {
                try (StoreClient c = StoreClient.connect(at(server), token, rank, 2, 20_000)) {
                    for (int i = 0; i < rounds; i++) {
                        byte[][] all = c.allGather("step" + i, bytes(rank + "/" + i));
                        assertArrayEquals(bytes("0/" + i), all[0]);
                        assertArrayEquals(bytes("1/" + i), all[1]);
                    }
                    c.barrier("end");
                }
                return null;
            }));
        }
        return out;
    }

    @Test
    void aRankLostInOneJobFailsThatJobOnlyAndTheOtherJobsGathersComplete() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0))) {
            StoreJob a = server.open(A, 2, 20_000);
            StoreJob b = server.open(B, 2, 20_000);
            // job A: rank 1 dies; rank 0's gather fails naming it, fast
            RawHello.connectAndVanish(at(server), A, 1, 1, 2);
            try (StoreClient a0 = StoreClient.connect(at(server), A, 0, 2, 20_000)) {
                NcclbenchException e = assertThrows(NcclbenchException.class, () -> a0.allGather("step0", bytes("a")));
                assertTrue(e.getMessage().contains("rank 1 lost"), e.getMessage());
                assertEquals(ExitCode.RUN_FAILED, e.exitCode());
                // job B, same ranks and tags, on the same store: untouched by A's verdict
                for (Future<Object> f : pair(pool, server, B, 5)) {
                    f.get(20, TimeUnit.SECONDS);
                }
            }
            assertTrue(a.state.decided(), "job A has its verdict");
            assertTrue(!b.state.decided(), "job B has none: A's lost rank is not B's");
            assertTrue(b.traffic().snapshot()[4] > 0 && a.traffic().snapshot()[4] > 0, "each job counts its own answers");
            // A ends; B goes on with a new round of gathers on the same store, and A's token is refused from now on
            a.close();
            for (Future<Object> f : pair(pool, server, B, 1)) {
                f.get(20, TimeUnit.SECONDS);
            }
            NcclbenchException gone = assertThrows(NcclbenchException.class,
                    () -> StoreClient.connect(at(server), A, 0, 2, 5_000));
            assertTrue(gone.getMessage().contains("wrong job token"), gone.getMessage());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anUnknownTokenIsRefusedAsAWrongToken() throws Exception {
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0))) {
            server.open(A, 2, 10_000);
            server.open(B, 3, 10_000);
            NcclbenchException e = assertThrows(NcclbenchException.class,
                    () -> StoreClient.connect(at(server), UNKNOWN, 1, 2, 5_000));
            assertTrue(e.getMessage().contains("wrong job token: this store belongs to another job"), e.getMessage());
            assertTrue(e.getMessage().contains("refused rank 1"), e.getMessage());
            assertEquals(ExitCode.USAGE, e.exitCode());
            // each job's own size: rank 2 of 3 fits B, not A
            e = assertThrows(NcclbenchException.class, () -> StoreClient.connect(at(server), A, 2, 3, 5_000));
            assertTrue(e.getMessage().contains("does not fit a job of 2 ranks"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> server.open(A, 2, 10_000));
        }
    }

    @Test
    void manyJobsCostNoThreadAndLittleHeap() throws Exception {
        int jobs = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0))) {
            long threads = storeThreads();
            long before = usedHeap();
            List<StoreJob> open = new ArrayList<>();
            java.util.Random random = new java.util.Random(1);
            for (int i = 0; i < jobs; i++) {
                byte[] t = new byte[32];
                random.nextBytes(t);
                open.add(server.open(t, 2, 30_000));
            }
            long perJob = (usedHeap() - before) / jobs;
            // at most as many: a store closed by an earlier test in this JVM may end its thread meanwhile
            assertTrue(storeThreads() <= threads, "a job is no thread of its own: " + threads + " store threads before, "
                    + storeThreads() + " after 20,000 jobs");
            // the store's clock ticks every job 10 times a second: what that costs its thread per job
            long t0 = System.nanoTime();
            for (int i = 0; i < 10; i++) {
                open.forEach(StoreJob::tick);
            }
            long tickNanos = (System.nanoTime() - t0) / (10L * jobs);
            // the last job opened is served among the 20,000, and closing them all leaves the store serving
            for (Future<Object> f : pair(pool, server, open.get(jobs - 1).token, 1)) {
                f.get(20, TimeUnit.SECONDS);
            }
            server.close(open);
            System.out.printf(Locale.ROOT, "store: %d jobs open on one store (%d store threads), about %d bytes of heap a"
                    + " job without its connections, %d ns a job's tick of the clock%n", jobs, threads, perJob, tickNanos);
        } finally {
            pool.shutdownNow();
        }
    }

    private static long storeThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("ncclbench-store")).count();
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
