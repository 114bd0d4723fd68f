package dev.ncclbench.sweep;

import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.rendezvous.StoreClient;
import dev.ncclbench.rendezvous.StoreServer;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.spec.RunSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A placement's figures ride on the next start barrier, over the real store: rank 0 gets every placement's figures
 * combined, in order, and the store sees one round a placement and one for the last figures, not two a placement.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ResultRelayTest {
    private static final byte[] TOKEN = "relay-test-token".getBytes(StandardCharsets.US_ASCII);
    private static final int N = 4;
    private static final int PLACEMENTS = 3;

    private static RunSpec spec() {
        return RunSpec.builder().collectives(List.of("all_reduce"))
                .minBytes(8).maxBytes(8).maxBytesSource(dev.ncclbench.spec.MaxBytesSource.FLAG).stepFactor(2).stepBytes(1 << 20)
                .iters(2).warmupIters(0).aggIters(1).repeat(1)
                .checkIters(1).op(ReduceOp.SUM).type(DataType.FLOAT).root(0)
                .average(1).blocking(0).timeoutSeconds(0)
                .gpusPerThread(1).threads(1).cudaGraph(0).perIterTiming(1)
                .backend("socket").localRanks(1)
                .jsonFile(Path.of("r.json")).outDir(Path.of("."))
                .socketsPerPeer(1).socketIfname(null).socketAlgo("auto").socketChunk(0)
                .build();
    }

    /** Rank r's time in placement p: (r + 1) x (p + 1) ms; rank 2 finds one wrong element in placement 1. */
    private static ResultRelay.Local local(RunSpec spec, Collective coll, int rank, int p) {
        double seconds = (rank + 1) * (p + 1) * 1e-3;
        return new ResultRelay.Local(spec, coll, coll.counts(2, 4, N), seconds, seconds, rank == 2 && p == 1 ? 1 : 0,
                new double[] {seconds * 1e6, seconds * 1e6}, "ring", "#" + p + " all_reduce 8 B");
    }

    @Test
    void figuresRideOnTheNextStartBarrierAndArriveCombinedInOrder() throws Exception {
        RunSpec spec = spec();
        Collective coll = Collectives.byName("all_reduce");
        ExecutorService pool = Executors.newFixedThreadPool(N);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, N, 20_000)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            List<StoreClient> clients = new ArrayList<>();
            for (int r = 0; r < N; r++) {
                clients.add(StoreClient.connect(at, TOKEN, r, N, 20_000));
            }
            long before = server.traffic().snapshot()[3];
            List<Future<List<ResultRelay.Placement>>> got = new ArrayList<>();
            for (int r = 0; r < N; r++) {
                int rank = r;
                got.add(pool.submit(() -> {
                    ResultRelay relay = new ResultRelay(clients.get(rank), N);
                    for (int p = 0; p < PLACEMENTS; p++) {
                        relay.startBarrier("#" + p + " all_reduce 8 B: start");
                        relay.hold(local(spec, coll, rank, p));
                    }
                    relay.flush();
                    List<ResultRelay.Placement> out = new ArrayList<>();
                    while (relay.ready() > 0) {
                        out.add(relay.take());
                    }
                    return out;
                }));
            }
            List<List<ResultRelay.Placement>> all = new ArrayList<>();
            for (Future<List<ResultRelay.Placement>> f : got) {
                all.add(f.get(30, TimeUnit.SECONDS));
            }
            // a start barrier a placement, the first without figures, and the last figures alone
            assertEquals(N * (PLACEMENTS + 1), server.traffic().snapshot()[3] - before, "requests through the store");
            for (int p = 0; p < PLACEMENTS; p++) {
                ResultRelay.Placement zero = all.get(0).get(p);
                // -a 1: the mean of 1, 2, 3, 4 ms, times p + 1
                assertEquals(2.5e3 * (p + 1), zero.measurement().timeUs(), 1e-6, "rank 0's placement " + p);
                assertEquals(p == 1 ? 1 : 0, zero.wrongRanks(), "ranks with wrong elements in placement " + p);
                // the others keep their own time, for their code warm-up's pace
                assertEquals(3e3 * (p + 1), all.get(2).get(p).measurement().timeUs(), 1e-6, "rank 2's own");
            }
            for (List<ResultRelay.Placement> mine : all) {
                assertEquals(PLACEMENTS, mine.size());
            }
            clients.forEach(StoreClient::close);
        } finally {
            pool.shutdownNow();
        }
    }
}
