package dev.ncclbench.backend.socket;

import dev.ncclbench.backend.Call;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.env.Host;
import dev.ncclbench.rendezvous.StoreClient;
import dev.ncclbench.rendezvous.StoreServer;
import dev.ncclbench.spec.RunSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The socket backend connects only the peers its algorithms use, and every collective still verifies. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PeerLinksTest {
    private static final byte[] TOKEN = "peer-links-token".getBytes(StandardCharsets.US_ASCII);

    private static RunSpec spec(List<String> collectives, int root) {
        return RunSpec.builder().collectives(collectives)
                .minBytes(8).maxBytes(1 << 20).maxBytesSource(dev.ncclbench.spec.MaxBytesSource.FLAG).stepFactor(2).stepBytes(1 << 20)
                .iters(1).warmupIters(0).aggIters(1).repeat(1)
                .checkIters(1).op(ReduceOp.SUM).type(DataType.FLOAT).root(root)
                .average(1).blocking(0).timeoutSeconds(60)
                .gpusPerThread(1).threads(1).cudaGraph(0).perIterTiming(0)
                .backend("socket").localRanks(1)
                .jsonFile(Path.of("r.json")).outDir(Path.of("."))
                .socketsPerPeer(1).socketIfname("lo").socketAlgo("auto").socketChunk(0)
                .build();
    }

    private static int log2ceil(int n) {
        return 32 - Integer.numberOfLeadingZeros(Math.max(1, n - 1));
    }

    @Test
    void everyLinkIsWantedByBothEndsAndAnAllReduceNeedsFew() {
        List<List<String>> plans = List.of(List.of("all_reduce"), List.of("all_gather", "reduce_scatter", "sendrecv"),
                List.of("broadcast", "reduce"), List.of("gather"), List.of("alltoall"));
        for (int n = 1; n <= 70; n++) {
            for (List<String> plan : plans) {
                for (int root : new int[] {-1, 0, n - 1}) {
                    RunSpec s = spec(plan, root);
                    boolean[][] need = new boolean[n][];
                    for (int r = 0; r < n; r++) {
                        need[r] = Peers.needed(s, r, n);
                    }
                    for (int r = 0; r < n; r++) {
                        for (int p = 0; p < n; p++) {
                            assertEquals(need[r][p], need[p][r], plan + " n=" + n + " root " + root + ": " + r + "<->" + p);
                        }
                        int count = Peers.count(need[r]);
                        if (plan.equals(List.of("all_reduce"))) {
                            assertTrue(count <= 3 + log2ceil(n), "all_reduce n=" + n + " rank " + r + ": " + count + " peers");
                        } else if (!plan.contains("alltoall") && !plan.contains("gather")) {
                            assertTrue(count <= 2, plan + " n=" + n + ": " + count + " peers");
                        }
                    }
                }
            }
        }
    }

    @Test
    void sixteenRanksLinkOnlyTheirPartnersAndEveryCollectiveVerifies() throws Exception {
        int n = 16;
        List<String> collectives = List.of("all_reduce", "all_gather", "reduce_scatter", "broadcast", "sendrecv");
        RunSpec spec = spec(collectives, 0);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, 60_000)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            List<Future<Integer>> links = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                links.add(pool.submit(() -> {
                    try (StoreClient plane = StoreClient.connect(at, TOKEN, rank, n, 60_000)) {
                        RankComm comm = new SocketBackend().open(spec, List.of(plane), 0, Host.of(Map.of())).get(0);
                        try {
                            int held = ((SocketRankComm) comm).connections();
                            // 8 B and 4 KiB: recursive doubling; 1 MiB: Rabenseifner; every kind in the plan
                            for (String name : collectives) {
                                Collective c = Collectives.byName(name);
                                for (long size : new long[] {8, 4096, 1 << 20}) {
                                    Call call = new Call(c, c.counts(size / 4, 4, n), DataType.FLOAT, ReduceOp.SUM, 0, false);
                                    try (Operation op = comm.prepare(call)) {
                                        op.fill();
                                        op.launch(0);
                                        op.drain();
                                        assertEquals(0, op.verify(), name + " " + size + " on rank " + rank);
                                    }
                                }
                            }
                            plane.barrier("done");
                            return held;
                        } finally {
                            comm.close();
                        }
                    }
                }));
            }
            for (int r = 0; r < n; r++) {
                int held = links.get(r).get(100, TimeUnit.SECONDS);
                // ring neighbours and log2(16) = 4 doubling partners, two of which are the neighbours' kin: at most 6
                assertTrue(held >= 2 && held <= 2 + log2ceil(n), "rank " + r + " holds " + held + " connections, not N-1 = " + (n - 1));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
