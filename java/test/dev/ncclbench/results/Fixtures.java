package dev.ncclbench.results;

import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.spec.RunSpec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Hand-made runs and rows: realistic values plus the extremes that reach every formatting branch. */
final class Fixtures {
    private Fixtures() {
    }

    static RunSpec spec(List<String> collectives, int checkIters) {
        return RunSpec.builder().collectives(collectives)
                .minBytes(8).maxBytes(134217728).maxBytesSource(dev.ncclbench.spec.MaxBytesSource.FLAG).stepFactor(2).stepBytes(1048576)
                .iters(20).warmupIters(1).aggIters(1).repeat(1)
                .checkIters(checkIters).op(ReduceOp.SUM).type(DataType.FLOAT).root(0)
                .average(1).blocking(0).timeoutSeconds(0)
                .gpusPerThread(1).threads(1).cudaGraph(0).perIterTiming(0)
                .backend("socket").localRanks(2)
                .jsonFile(Path.of("results/runs/r1.json")).outDir(Path.of("results/runs"))
                .socketsPerPeer(1).socketIfname(null).socketAlgo("auto").socketChunk(0)
                .build();
    }

    static ResultDocument run(List<String> collectives, int checkIters) {
        Map<String, String> versions = new LinkedHashMap<>();
        versions.put("ncclbench", "0.1.0");
        versions.put("java", "17.0.15");
        Map<String, String> env = new LinkedHashMap<>();
        env.put("NCCL_SOCKET_IFNAME", "eth0");
        env.put("NCCL_DEBUG", "INFO");
        return ResultDocument.begin().toolVersion("0.1.0").startedAt("2025-01-02T03:04:05Z").backend("socket")
                .backendReason("auto: no NVIDIA driver (libcuda.so.1 not found)").spec(spec(collectives, checkIters))
                .versions(versions).nranks(2)
                .ranks(List.of(new RankInfo(0, 0, "node-a", 12345, "eth0 10.0.0.1"),
                        new RankInfo(1, 0, "gpu-node-long-name", 7, "cuda:1 [0000:18:00.0] NVIDIA H200")))
                .environment(env).ncclLogFiles(List.of("nccl.node-a.12345"))
                .notes(List.of("maxBytes 128 MiB: --max given", "second note")).begun();
    }

    static final RouteVerdict SOCKET = new RouteVerdict("socket", "likely",
            "busbw matches the 10 GbE socket floor", List.of("busbw 1.09 GB/s vs catalog 1.25 GB/s"));
    static final RouteVerdict LATENCY = new RouteVerdict("unknown", "unknown",
            "latency-bound: too small to judge the path", List.of());

    /** all_reduce 8 B .. 128 MiB x2 on 2 ranks, checked, all correct; times grow from 10 us to 1.2 s. */
    static List<ResultRow> allReduceRows() {
        List<ResultRow> rows = new ArrayList<>();
        for (long size = 8; size <= 134217728; size *= 2) {
            // Latency ~ 10.3 us + size / 1.1 GB/s, with a wobble so that decimals differ.
            double t = 10.3 + size / 1.1e3 * (1 + (Long.numberOfTrailingZeros(size) % 3) * 0.01);
            double alg = size / 1e3 / t;
            double bus = alg * 2 * (2 - 1) / 2.0;
            RouteVerdict v = size < 65536 ? LATENCY : SOCKET;
            rows.add(new ResultRow("all_reduce", size, size / 4, "float", "sum", -1,
                    new Measurement(t, alg, bus, 0), new Measurement(t * 0.98, alg / 0.98, bus / 0.98, 0),
                    new SampleStats(20, t * 0.9, t, t * 1.2, t * 1.3, t * 1.01, 3.5, List.of(t * 0.9, t, t * 1.3)), null, v));
        }
        return rows;
    }

    /** Values outside the usual ranges: exponent forms, a row with wrong results, NaN and unchecked placements. */
    static List<ResultRow> broadcastRows() {
        return List.of(
                new ResultRow("broadcast", 0, 0, "float", "none", 0,
                        new Measurement(0.004, 0, 0, -1), new Measurement(0.0049999, 0, 0, -1), null, null, null),
                new ResultRow("broadcast", 1024, 256, "float", "none", 0,
                        new Measurement(999.995, 0.001, 0.001, -1), new Measurement(9999.995, 0.125, 2.675, -1),
                        null, null, null),
                new ResultRow("broadcast", 1048576, 262144, "float", "none", 0,
                        new Measurement(12345678.9, 99999.95, 999999.5, 3, 1), new Measurement(1.5e100, 1234567, 1e16, 12, 2),
                        null, null, SOCKET),
                new ResultRow("broadcast", 2097152, 524288, "float", "none", 0,
                        new Measurement(Double.NaN, Double.POSITIVE_INFINITY, -1.5, 0), new Measurement(65536, 12.3456, 0.5, 0),
                        null, null, SOCKET));
    }
}
