package dev.ncclbench.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;

import java.nio.file.Path;
import java.util.List;

/**
 * The resolved options of one sweep: what the command line asked for, with every default filled in, grouped as a
 * user reads them. It is written into every result as it is (the flat "spec" object of docs/results-schema.md:
 * each group is unwrapped into it, so the groups follow the documented field order; op and type by their
 * nccl-tests names, paths as strings), so that a result explains itself. Build one with {@link #builder()}, change
 * one with {@link #toBuilder()}.
 *
 * @param collectives nccl-tests names, in run order
 */
@JsonPropertyOrder({"collectives", "range", "iterations", "data", "timing", "devices", "placement", "outputs", "socket",
        "ncclTests"})
public record RunSpec(
        @JsonProperty("collectives") List<String> collectives,
        @JsonUnwrapped SizeRange range,
        @JsonUnwrapped Iterations iterations,
        @JsonUnwrapped Data data,
        @JsonUnwrapped Timing timing,
        @JsonUnwrapped Devices devices,
        @JsonUnwrapped Placement placement,
        @JsonUnwrapped Outputs outputs,
        @JsonUnwrapped SocketOptions socket,
        @JsonUnwrapped NcclTestsFlags ncclTests) {

    /**
     * The sizes swept: -b, -e, -f, -i.
     *
     * @param maxBytesSource where -e came from (the sentence of a lowered one is a header note)
     * @param stepFactor     -f (0 or 1: additive)
     */
    @JsonPropertyOrder({"min_bytes", "max_bytes", "max_bytes_source", "step_factor", "step_bytes"})
    public record SizeRange(@JsonProperty("min_bytes") long minBytes, @JsonProperty("max_bytes") long maxBytes,
                            @JsonProperty("max_bytes_source") MaxBytesSource maxBytesSource,
                            @JsonProperty("step_factor") long stepFactor, @JsonProperty("step_bytes") long stepBytes) {

        /** -e lowered (or raised) to {@code max}; -b follows it down, so the sweep never starts above its end. */
        public SizeRange upTo(long max, MaxBytesSource source) {
            return new SizeRange(Math.min(minBytes, max), max, source, stepFactor, stepBytes);
        }
    }

    /** How often each size runs: -n timed, -w warm-up, -m calls aggregated per iteration, -N whole sweeps. */
    @JsonPropertyOrder({"iters", "warmup_iters", "agg_iters", "repeat"})
    public record Iterations(@JsonProperty("iters") int iters, @JsonProperty("warmup_iters") int warmupIters,
                             @JsonProperty("agg_iters") int aggIters, @JsonProperty("repeat") int repeat) {
    }

    /**
     * What each call moves and how it is checked: -c, -o, -d, -r.
     *
     * @param checkIters -c (0: #wrong prints N/A)
     * @param root       -r (-1: every root)
     */
    @JsonPropertyOrder({"check_iters", "op", "type", "root"})
    public record Data(@JsonProperty("check_iters") int checkIters, @JsonProperty("op") ReduceOp op,
                       @JsonProperty("type") DataType type, @JsonProperty("root") int root) {
    }

    /**
     * How an iteration is waited for, timed across ranks, and given up on.
     *
     * @param average        -a: 0 rank 0, 1 mean, 2 min, 3 max
     * @param blocking       -z
     * @param timeoutSeconds -T (0: the backend's default watchdog)
     */
    @JsonPropertyOrder({"average", "blocking", "timeout_seconds"})
    public record Timing(@JsonProperty("average") int average, @JsonProperty("blocking") int blocking,
                         @JsonProperty("timeout_seconds") int timeoutSeconds) {
    }

    /**
     * The GPU side of the nccl backend.
     *
     * @param gpusPerThread -g
     * @param threads       -t
     * @param cudaGraph     -G (0: off)
     * @param perIterTiming -I: per-iteration device timing (CUDA events); 0: none, as nccl-tests
     */
    @JsonPropertyOrder({"gpus_per_thread", "threads", "cuda_graph", "per_iter_timing"})
    public record Devices(@JsonProperty("gpus_per_thread") int gpusPerThread, @JsonProperty("threads") int threads,
                          @JsonProperty("cuda_graph") int cudaGraph, @JsonProperty("per_iter_timing") int perIterTiming) {
    }

    /**
     * Which backend runs, and how many ranks this process holds.
     *
     * @param backend    auto, nccl or socket as asked (the one chosen once resolved)
     * @param localRanks --ranks: ranks run as threads of this process (socket backend)
     */
    @JsonPropertyOrder({"backend", "local_ranks"})
    public record Placement(@JsonProperty("backend") String backend, @JsonProperty("local_ranks") int localRanks) {
    }

    /**
     * Where the run writes.
     *
     * @param jsonFile --json, or null for the default beside the run's output
     * @param outDir   --out, then the run's own folder under it
     */
    @JsonPropertyOrder({"json_file", "out_dir"})
    public record Outputs(@JsonProperty("json_file") @JsonSerialize(using = ToStringSerializer.class) Path jsonFile,
                          @JsonProperty("out_dir") @JsonSerialize(using = ToStringSerializer.class) Path outDir) {
    }

    /**
     * The socket backend's transport.
     *
     * @param socketsPerPeer TCP connections per pair of ranks
     * @param socketIfname   NCCL_SOCKET_IFNAME-syntax list it binds with; null: NCCL's default order
     * @param socketAlgo     --socket-algo: the all_reduce algorithm, auto, ring, rd or rabenseifner
     * @param socketChunk    --socket-chunk: the reduction piece in bytes; 0: its default
     */
    @JsonPropertyOrder({"sockets_per_peer", "socket_ifname", "socket_algo", "socket_chunk"})
    public record SocketOptions(@JsonProperty("sockets_per_peer") int socketsPerPeer,
                                @JsonProperty("socket_ifname") String socketIfname,
                                @JsonProperty("socket_algo") String socketAlgo,
                                @JsonProperty("socket_chunk") long socketChunk) {
    }

    /**
     * nccl-tests' remaining flags, with its meanings (src/common.cu of v2.19.6).
     *
     * @param types             -d: the types swept in order (-d all: every one); empty: {@link Data#type} alone
     * @param ops               -o: nccl-tests' op names swept in order (-o all: every one, mulsum too); empty: {@link Data#op}
     * @param skipped           "type op" pairs the backend cannot reduce: -d all / -o all run the rest (SpecForBackend)
     * @param outputFile        -J: nccl-tests' own JSON (version 3) written here; null: none
     * @param reportCputime     -C 1: the time column is the host's time to issue the calls
     * @param reportTimestamps  -S 1: a timestamp column
     * @param perIterSkip       -K: leading per-iteration samples left out of the i_* statistics
     * @param unalign           -u: buffers start this many elements past their allocation
     * @param memoryReport      -M 1: the memory report after the table
     * @param parallelInit      -p 1: threads initialise their communicators concurrently (nccl backend)
     * @param localRegister     -R: 1 local, 2 symmetric buffer registration (nccl backend)
     * @param gpuOnly           the flags given that only a GPU backend honours, "-R 1 (local_register): what it does"
     * @param split             nccl-tests' split as set ("NCCL_TESTS_SPLIT=MOD 2", {@link NcclTestsSplit}); null: none
     * @param alltoallvSpread   NCCL_TESTS_ALLTOALLV_SPREAD as set where alltoallv runs; null: unset, or no alltoallv
     */
    @JsonPropertyOrder({"types", "ops", "skipped", "nccl_tests_json", "report_cputime", "report_timestamps",
            "per_iter_skip", "unalign", "memory_report", "parallel_init", "local_register", "gpu_only_flags", "split",
            "alltoallv_spread"})
    public record NcclTestsFlags(@JsonProperty("types") List<DataType> types, @JsonProperty("ops") List<String> ops,
                                 @JsonProperty("skipped") List<String> skipped,
                                 @JsonProperty("nccl_tests_json") @JsonSerialize(using = ToStringSerializer.class) Path outputFile,
                                 @JsonProperty("report_cputime") int reportCputime,
                                 @JsonProperty("report_timestamps") int reportTimestamps,
                                 @JsonProperty("per_iter_skip") int perIterSkip, @JsonProperty("unalign") int unalign,
                                 @JsonProperty("memory_report") int memoryReport,
                                 @JsonProperty("parallel_init") int parallelInit,
                                 @JsonProperty("local_register") int localRegister,
                                 @JsonProperty("gpu_only_flags") List<String> gpuOnly,
                                 @JsonProperty("split") @JsonInclude(JsonInclude.Include.NON_NULL) String split,
                                 @JsonProperty("alltoallv_spread") @JsonInclude(JsonInclude.Include.NON_NULL)
                                 String alltoallvSpread) {
        public NcclTestsFlags {
            types = types == null ? List.of() : List.copyOf(types);
            ops = ops == null ? List.of() : List.copyOf(ops);
            skipped = skipped == null ? List.of() : List.copyOf(skipped);
            gpuOnly = gpuOnly == null ? List.of() : List.copyOf(gpuOnly);
        }

        /** The same flags with the pairs the backend cannot run. */
        public NcclTestsFlags withSkipped(List<String> s) {
            return new NcclTestsFlags(types, ops, s, outputFile, reportCputime, reportTimestamps, perIterSkip, unalign,
                    memoryReport, parallelInit, localRegister, gpuOnly, split, alltoallvSpread);
        }

        /**
         * The same flags with what nccl-tests reads from the environment: its split ("NCCL_TESTS_SPLIT=MOD 2",
         * {@link NcclTestsSplit}) and alltoallv's spread (NCCL_TESTS_ALLTOALLV_SPREAD's value), each null when unset.
         */
        public NcclTestsFlags withEnvironment(String splitAssignment, String spread) {
            return new NcclTestsFlags(types, ops, skipped, outputFile, reportCputime, reportTimestamps, perIterSkip, unalign,
                    memoryReport, parallelInit, localRegister, gpuOnly, splitAssignment, spread);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().collectives(collectives).range(range)
                .iters(iterations.iters()).warmupIters(iterations.warmupIters()).aggIters(iterations.aggIters())
                .repeat(iterations.repeat())
                .checkIters(data.checkIters()).op(data.op()).type(data.type()).root(data.root())
                .average(timing.average()).blocking(timing.blocking()).timeoutSeconds(timing.timeoutSeconds())
                .gpusPerThread(devices.gpusPerThread()).threads(devices.threads()).cudaGraph(devices.cudaGraph())
                .perIterTiming(devices.perIterTiming())
                .backend(placement.backend()).localRanks(placement.localRanks())
                .jsonFile(outputs.jsonFile()).outDir(outputs.outDir())
                .socketsPerPeer(socket.socketsPerPeer()).socketIfname(socket.socketIfname())
                .socketAlgo(socket.socketAlgo()).socketChunk(socket.socketChunk()).ncclTests(ncclTests);
    }

    /** The sizes of the sweep in order, exactly as nccl-tests steps them. */
    public List<Long> sizes() {
        return Sizes.steps(range.minBytes(), range.maxBytes(), range.stepFactor(), range.stepBytes());
    }

    /** The watchdog: -T, or {@link Defaults#WATCHDOG_SECONDS} when -T is 0. */
    public long timeoutMillis() {
        return Defaults.watchdogMillis(timing.timeoutSeconds());
    }

    // The flat names the backends and writers read, each from its group.
    public long minBytes() { return range.minBytes(); }
    public long maxBytes() { return range.maxBytes(); }
    public MaxBytesSource maxBytesSource() { return range.maxBytesSource(); }
    public long stepFactor() { return range.stepFactor(); }
    public long stepBytes() { return range.stepBytes(); }
    public int iters() { return iterations.iters(); }
    public int warmupIters() { return iterations.warmupIters(); }
    public int aggIters() { return iterations.aggIters(); }
    public int repeat() { return iterations.repeat(); }
    public int checkIters() { return data.checkIters(); }
    public ReduceOp op() { return data.op(); }
    public DataType type() { return data.type(); }
    public int root() { return data.root(); }
    public int average() { return timing.average(); }
    public int blocking() { return timing.blocking(); }
    public int timeoutSeconds() { return timing.timeoutSeconds(); }
    public int gpusPerThread() { return devices.gpusPerThread(); }
    public int threads() { return devices.threads(); }
    public int cudaGraph() { return devices.cudaGraph(); }
    public int perIterTiming() { return devices.perIterTiming(); }
    public String backend() { return placement.backend(); }
    public int localRanks() { return placement.localRanks(); }
    public Path jsonFile() { return outputs.jsonFile(); }
    public Path outDir() { return outputs.outDir(); }
    public int socketsPerPeer() { return socket.socketsPerPeer(); }
    public String socketIfname() { return socket.socketIfname(); }
    public String socketAlgo() { return socket.socketAlgo(); }
    public long socketChunk() { return socket.socketChunk(); }

    /** -d as swept: the -d all list, else the one type. */
    public List<DataType> types() {
        return ncclTests.types().isEmpty() ? List.of(type()) : ncclTests.types();
    }

    /** -o as swept, by nccl-tests' names: the -o all list, else the one op. */
    public List<String> ops() {
        return ncclTests.ops().isEmpty() ? List.of(op().label()) : ncclTests.ops();
    }

    /**
     * The collective {@code name} as this sweep runs it: alltoallv with the spread every rank agreed on
     * (NCCL_TESTS_ALLTOALLV_SPREAD), every other as the registry has it; null when the name is unknown.
     */
    public Collective collective(String name) {
        return Collectives.byName(name, ncclTests.alltoallvSpread());
    }

    /**
     * Names each field it sets; a field left unset is its flag's default ({@link SweepFlag}, {@link Defaults}): the
     * default sweep, with no output file. Like JMH's OptionsBuilder, the command line, fleet and tests each set what
     * they resolved and nothing else.
     */
    public static final class Builder {
        private List<String> collectives = List.of(Defaults.COLLECTIVE);
        private long minBytes = Defaults.SWEEP_MIN_BYTES, maxBytes = Defaults.SWEEP_MAX_BYTES;
        private long stepFactor = Defaults.SWEEP_STEP_FACTOR, stepBytes = Defaults.STEP_BYTES;
        private long socketChunk = Defaults.SOCKET_CHUNK;
        private MaxBytesSource maxBytesSource = MaxBytesSource.DEFAULT;
        private String backend = Defaults.BACKEND, socketIfname, socketAlgo = Defaults.SOCKET_ALGO;
        private int iters = Defaults.ITERS, warmupIters = Defaults.WARMUP_ITERS, aggIters = Defaults.AGG_ITERS;
        private int repeat = Defaults.RUN_CYCLES, checkIters = Defaults.CHECK_ITERS, root = Defaults.ROOT;
        private int average = Defaults.AVERAGE, blocking = Defaults.BLOCKING, timeoutSeconds;
        private int gpusPerThread = Defaults.GPUS_PER_THREAD, threads = Defaults.THREADS, cudaGraph = Defaults.CUDA_GRAPH;
        private int perIterTiming = Defaults.PER_ITER_TIMING, localRanks, socketsPerPeer = Defaults.SOCKETS_PER_PEER;
        private ReduceOp op = Defaults.OP;
        private DataType type = Defaults.TYPE;
        private Path jsonFile, outDir = Defaults.OUT_DIR;
        private NcclTestsFlags ncclTests = new NcclTestsFlags(null, null, null, null, 0, 0, 0, 0, 0, 0, 0, null, null, null);

        private Builder() {
        }

        public Builder collectives(List<String> v) { collectives = v; return this; }
        public Builder minBytes(long v) { minBytes = v; return this; }
        public Builder maxBytes(long v) { maxBytes = v; return this; }
        public Builder maxBytesSource(MaxBytesSource v) { maxBytesSource = v; return this; }
        public Builder stepFactor(long v) { stepFactor = v; return this; }
        public Builder stepBytes(long v) { stepBytes = v; return this; }
        public Builder iters(int v) { iters = v; return this; }
        public Builder warmupIters(int v) { warmupIters = v; return this; }
        public Builder aggIters(int v) { aggIters = v; return this; }
        public Builder repeat(int v) { repeat = v; return this; }
        public Builder checkIters(int v) { checkIters = v; return this; }
        public Builder op(ReduceOp v) { op = v; return this; }
        public Builder type(DataType v) { type = v; return this; }
        public Builder root(int v) { root = v; return this; }
        public Builder average(int v) { average = v; return this; }
        public Builder blocking(int v) { blocking = v; return this; }
        public Builder timeoutSeconds(int v) { timeoutSeconds = v; return this; }
        public Builder gpusPerThread(int v) { gpusPerThread = v; return this; }
        public Builder threads(int v) { threads = v; return this; }
        public Builder cudaGraph(int v) { cudaGraph = v; return this; }
        public Builder perIterTiming(int v) { perIterTiming = v; return this; }
        public Builder backend(String v) { backend = v; return this; }
        public Builder localRanks(int v) { localRanks = v; return this; }
        public Builder jsonFile(Path v) { jsonFile = v; return this; }
        public Builder outDir(Path v) { outDir = v; return this; }
        public Builder socketsPerPeer(int v) { socketsPerPeer = v; return this; }
        public Builder socketIfname(String v) { socketIfname = v; return this; }
        public Builder socketAlgo(String v) { socketAlgo = v; return this; }
        public Builder socketChunk(long v) { socketChunk = v; return this; }
        public Builder ncclTests(NcclTestsFlags v) { ncclTests = v; return this; }

        /** All of -b, -e, -f, -i at once, e.g. from {@link SizeRange#upTo}. */
        public Builder range(SizeRange r) {
            return minBytes(r.minBytes()).maxBytes(r.maxBytes()).maxBytesSource(r.maxBytesSource())
                    .stepFactor(r.stepFactor()).stepBytes(r.stepBytes());
        }

        public RunSpec build() {
            return new RunSpec(collectives, new SizeRange(minBytes, maxBytes, maxBytesSource, stepFactor, stepBytes),
                    new Iterations(iters, warmupIters, aggIters, repeat), new Data(checkIters, op, type, root),
                    new Timing(average, blocking, timeoutSeconds), new Devices(gpusPerThread, threads, cudaGraph, perIterTiming),
                    new Placement(backend, localRanks), new Outputs(jsonFile, outDir),
                    new SocketOptions(socketsPerPeer, socketIfname, socketAlgo, socketChunk), ncclTests);
        }
    }
}
