package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.DataInputStream;
import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A process's local ranks on one connection to the store: their gathers leave together, and each rank is still
 * judged on its own (a hung one named alone, a dead process's ranks lost).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalRanksTest {
    private static final byte[] TOKEN = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    /** The requests a {@link LocalArrivals} sends: for each, the ranks it carries. */
    private static List<List<Integer>> recording(List<byte[]> sent) throws Exception {
        List<List<Integer>> out = new ArrayList<>();
        for (byte[] req : sent) {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(req));
            assertEquals(Wire.OP_GATHERS, in.readInt());
            in.readInt();
            in.readInt();
            Wire.readString(in, Wire.MAX_TAG);
            int k = in.readInt();
            List<Integer> ranks = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                ranks.add(in.readInt());
                Wire.readBytes(in, Wire.MAX_PAYLOAD);
            }
            out.add(ranks);
        }
        return out;
    }

    /** {@code ranks} reach gather "start" at once, each on its own thread; returns once every arrival is on its way. */
    private static void arriveTogether(LocalArrivals arrivals, List<Integer> ranks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(ranks.size());
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int rank : ranks) {
                done.add(pool.submit(() -> {
                    arrivals.arrive("start", Wire.NOTHING, 0, new LocalArrivals.Arrival(rank, Wire.EMPTY, null));
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void fourLocalRanksAtOneGatherLeaveInOneRequest() throws Exception {
        List<byte[]> sent = new CopyOnWriteArrayList<>();
        // a linger longer than the test: only the fourth arrival can send
        LocalArrivals arrivals = new LocalArrivals(4, TimeUnit.SECONDS.toNanos(120), (rank, req) -> sent.add(req));
        arriveTogether(arrivals, List.of(4, 5, 6, 7));
        List<List<Integer>> requests = recording(sent);
        assertEquals(1, requests.size(), "one request for the process's four ranks: " + requests);
        assertEquals(List.of(4, 5, 6, 7), requests.get(0).stream().sorted().toList());
    }

    @Test
    void aLateLocalRankDoesNotHoldTheOthersBack() throws Exception {
        List<byte[]> sent = new CopyOnWriteArrayList<>();
        LocalArrivals arrivals = new LocalArrivals(4, TimeUnit.MILLISECONDS.toNanos(20), (rank, req) -> sent.add(req));
        // rank 3 is late: the three others are on their way without it (each arrive returns once sent)
        arriveTogether(arrivals, List.of(0, 1, 2));
        List<Integer> early = recording(sent).stream().flatMap(List::stream).sorted().toList();
        assertEquals(List.of(0, 1, 2), early);
        arrivals.arrive("start", Wire.NOTHING, 0, new LocalArrivals.Arrival(3, Wire.EMPTY, null));
        List<List<Integer>> all = recording(sent);
        assertEquals(List.of(3), all.get(all.size() - 1), "the late rank goes alone: " + all);
    }

    @Test
    void aHungLocalRankIsNamedAloneNotItsProcess() throws Exception {
        int n = 8;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, 1_500)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            List<StoreClient> planes = new ArrayList<>(StoreClient.connectAll(at, TOKEN, 0, 4, n, 5_000, null));
            planes.addAll(StoreClient.connectAll(at, TOKEN, 4, 4, n, 5_000, null));
            List<Future<NcclbenchException>> failures = new ArrayList<>();
            for (StoreClient c : planes) {
                if (c.rank() == 6) {
                    continue; // alive, connected, never arrives
                }
                failures.add(pool.submit(() -> assertThrows(NcclbenchException.class, () -> {
                    c.barrier("ready");
                    c.gather("#0 all_reduce 8 B out-of-place: start", new byte[] {1}, 0);
                })));
            }
            for (Future<NcclbenchException> f : failures) {
                NcclbenchException e = f.get(30, TimeUnit.SECONDS);
                assertEquals(ExitCode.TIMEOUT, e.exitCode(), e.getMessage());
                // the host its process said in its hello: every process of this test runs here
                assertTrue(e.getMessage().startsWith("rank 6 did not reach 'ready' within 1.5 s on "
                        + dev.ncclbench.launch.HostName.kernel() + " (hung or too slow"), e.getMessage());
            }
            planes.forEach(StoreClient::close);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aProcessThatDiesLosesItsRanksAndTheFirstIsNamed() throws Exception {
        int n = 8;
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, 30_000)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            List<StoreClient> alive = StoreClient.connectAll(at, TOKEN, 0, 4, n, 5_000, null);
            List<Future<NcclbenchException>> failures = new ArrayList<>();
            for (StoreClient c : alive) {
                failures.add(pool.submit(() -> assertThrows(NcclbenchException.class, () -> c.barrier("ready"))));
            }
            // ranks 4-7 in one process: it says hello, then is killed (a reset, no goodbye)
            RawHello.connectAndVanish(at, TOKEN, 4, 4, n);
            for (Future<NcclbenchException> f : failures) {
                NcclbenchException e = f.get(30, TimeUnit.SECONDS);
                assertEquals(ExitCode.RUN_FAILED, e.exitCode(), e.getMessage());
                assertTrue(e.getMessage().startsWith("rank 4 lost: its connection to the rendezvous closed"), e.getMessage());
            }
            alive.forEach(StoreClient::close);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void ranksOfAConnectionThatDoNotFitTheJobAreRefused() throws Exception {
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, 8, 5_000)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            NcclbenchException e = assertThrows(NcclbenchException.class,
                    () -> StoreClient.connectAll(at, TOKEN, 6, 4, 8, 5_000, null));
            assertEquals(ExitCode.USAGE, e.exitCode());
            assertTrue(e.getMessage().contains("refused ranks 6-9: ranks 6-9 of 8 do not fit a job of 8 ranks"), e.getMessage());
            List<StoreClient> first = StoreClient.connectAll(at, TOKEN, 0, 4, 8, 5_000, null);
            e = assertThrows(NcclbenchException.class, () -> StoreClient.connect(at, TOKEN, 2, 8, 5_000));
            assertTrue(e.getMessage().contains("rank 2 is already connected"), e.getMessage());
            first.forEach(StoreClient::close);
        }
    }
}
