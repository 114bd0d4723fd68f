package dev.ncclbench.spec;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;

import java.nio.file.Path;
import java.util.List;

/**
 * The resolved options of one sweep: what the command line asked for, with every default filled in.
 * It is written into every result as it is (the "spec" object of docs/results-schema.md: these
 * {@code @JsonProperty} names, op and type by their nccl-tests names, paths as strings), so that a result
 * explains itself.
 *
 * @param collectives     nccl-tests names, in run order
 * @param minBytes        -b
 * @param maxBytes        -e
 * @param maxBytesSource  where -e came from: "flag", "default", or a sentence (e.g. the free-memory cap)
 * @param stepFactor      -f (0 or 1: additive)
 * @param stepBytes       -i
 * @param iters           -n
 * @param warmupIters     -w
 * @param aggIters        -m
 * @param repeat          -N
 * @param checkIters      -c (0: #wrong prints N/A)
 * @param op              -o
 * @param type            -d
 * @param root            -r (-1: every root)
 * @param average         -a: 0 rank 0, 1 mean, 2 min, 3 max
 * @param blocking        -z
 * @param timeoutSeconds  -T (0: the backend's default watchdog)
 * @param gpusPerThread   -g
 * @param threads         -t
 * @param cudaGraph       -G (0: off)
 * @param perIterTiming   -I: per-iteration device timing (CUDA events) on the nccl backend; 0: none, as nccl-tests
 * @param backend         auto, nccl or socket as asked
 * @param localRanks      --ranks: ranks run as threads of this process (socket backend)
 * @param jsonFile        --json, or null for the default beside the run's output
 * @param outDir          --out
 * @param socketsPerPeer  TCP connections per pair of ranks (socket backend)
 * @param socketIfname    NCCL_SOCKET_IFNAME-syntax list the socket backend binds with; null: NCCL's default order
 * @param socketAlgo      --socket-algo: the socket backend's all_reduce algorithm, auto, ring, rd or rabenseifner
 * @param socketChunk     --socket-chunk: the socket backend's reduction piece in bytes; 0: its default
 */
@JsonPropertyOrder({"collectives", "min_bytes", "max_bytes", "max_bytes_source", "step_factor", "step_bytes", "iters",
        "warmup_iters", "agg_iters", "repeat", "check_iters", "op", "type", "root", "average", "blocking", "timeout_seconds",
        "gpus_per_thread", "threads", "cuda_graph", "per_iter_timing", "backend", "local_ranks", "json_file", "out_dir", "sockets_per_peer",
        "socket_ifname", "socket_algo", "socket_chunk"})
public record RunSpec(
        @JsonProperty("collectives") List<String> collectives,
        @JsonProperty("min_bytes") long minBytes,
        @JsonProperty("max_bytes") long maxBytes,
        @JsonProperty("max_bytes_source") String maxBytesSource,
        @JsonProperty("step_factor") long stepFactor,
        @JsonProperty("step_bytes") long stepBytes,
        @JsonProperty("iters") int iters,
        @JsonProperty("warmup_iters") int warmupIters,
        @JsonProperty("agg_iters") int aggIters,
        @JsonProperty("repeat") int repeat,
        @JsonProperty("check_iters") int checkIters,
        @JsonProperty("op") ReduceOp op,
        @JsonProperty("type") DataType type,
        @JsonProperty("root") int root,
        @JsonProperty("average") int average,
        @JsonProperty("blocking") int blocking,
        @JsonProperty("timeout_seconds") int timeoutSeconds,
        @JsonProperty("gpus_per_thread") int gpusPerThread,
        @JsonProperty("threads") int threads,
        @JsonProperty("cuda_graph") int cudaGraph,
        @JsonProperty("per_iter_timing") int perIterTiming,
        @JsonProperty("backend") String backend,
        @JsonProperty("local_ranks") int localRanks,
        @JsonProperty("json_file") @JsonSerialize(using = ToStringSerializer.class) Path jsonFile,
        @JsonProperty("out_dir") @JsonSerialize(using = ToStringSerializer.class) Path outDir,
        @JsonProperty("sockets_per_peer") int socketsPerPeer,
        @JsonProperty("socket_ifname") String socketIfname,
        @JsonProperty("socket_algo") String socketAlgo,
        @JsonProperty("socket_chunk") long socketChunk) {

    /** The sizes of the sweep in order, exactly as nccl-tests steps them. */
    public List<Long> sizes() {
        return Sizes.steps(minBytes, maxBytes, stepFactor, stepBytes);
    }

    public RunSpec withMaxBytes(long newMax, String source) {
        return new RunSpec(collectives, Math.min(minBytes, newMax), newMax, source, stepFactor, stepBytes, iters,
                warmupIters, aggIters, repeat, checkIters, op, type, root, average, blocking, timeoutSeconds,
                gpusPerThread, threads, cudaGraph, perIterTiming, backend, localRanks, jsonFile, outDir, socketsPerPeer, socketIfname, socketAlgo, socketChunk);
    }

    public RunSpec withSocketIfname(String ifname) {
        return new RunSpec(collectives, minBytes, maxBytes, maxBytesSource, stepFactor, stepBytes, iters,
                warmupIters, aggIters, repeat, checkIters, op, type, root, average, blocking, timeoutSeconds,
                gpusPerThread, threads, cudaGraph, perIterTiming, backend, localRanks, jsonFile, outDir, socketsPerPeer, ifname, socketAlgo, socketChunk);
    }

    /** The run's own folder under --out: where the JSON and the NCCL logs go. */
    public RunSpec withOutDir(Path dir) {
        return new RunSpec(collectives, minBytes, maxBytes, maxBytesSource, stepFactor, stepBytes, iters,
                warmupIters, aggIters, repeat, checkIters, op, type, root, average, blocking, timeoutSeconds,
                gpusPerThread, threads, cudaGraph, perIterTiming, backend, localRanks, jsonFile, dir, socketsPerPeer, socketIfname, socketAlgo, socketChunk);
    }

    /** --json: the result file, when the caller names it after resolving the flags (preflight's run folder). */
    public RunSpec withJsonFile(Path file) {
        return new RunSpec(collectives, minBytes, maxBytes, maxBytesSource, stepFactor, stepBytes, iters,
                warmupIters, aggIters, repeat, checkIters, op, type, root, average, blocking, timeoutSeconds,
                gpusPerThread, threads, cudaGraph, perIterTiming, backend, localRanks, file, outDir, socketsPerPeer, socketIfname, socketAlgo, socketChunk);
    }

    public RunSpec withLocalRanks(int ranks) {
        return new RunSpec(collectives, minBytes, maxBytes, maxBytesSource, stepFactor, stepBytes, iters,
                warmupIters, aggIters, repeat, checkIters, op, type, root, average, blocking, timeoutSeconds,
                gpusPerThread, threads, cudaGraph, perIterTiming, backend, ranks, jsonFile, outDir, socketsPerPeer, socketIfname, socketAlgo, socketChunk);
    }

    /** The watchdog: -T, or {@link Defaults#WATCHDOG_SECONDS} when -T is 0. */
    public long timeoutMillis() {
        return Defaults.watchdogMillis(timeoutSeconds);
    }

    public RunSpec withBackend(String resolvedBackend) {
        return new RunSpec(collectives, minBytes, maxBytes, maxBytesSource, stepFactor, stepBytes, iters,
                warmupIters, aggIters, repeat, checkIters, op, type, root, average, blocking, timeoutSeconds,
                gpusPerThread, threads, cudaGraph, perIterTiming, resolvedBackend, localRanks, jsonFile, outDir, socketsPerPeer, socketIfname, socketAlgo, socketChunk);
    }
}
