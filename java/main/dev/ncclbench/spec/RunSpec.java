package dev.ncclbench.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
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
import java.util.OptionalLong;

/**
 * The resolved options of one sweep: what the command line asked for, with every default filled in, grouped as a
 * user reads them. It is written into every result as it is (the flat "spec" object of docs/results-schema.md:
 * each group is unwrapped into it, so the groups follow the documented field order; op and type by their
 * nccl-tests names, paths as strings), so that a result explains itself. Callers read a field through its group
 * ({@code spec.socket().chunk()}); build one with {@link #builder()} (every field not set is its flag's default,
 * from {@link SweepFlag}), and change a resolved one a group at a time ({@link #withRange}, {@link #withData}, ...).
 * Every group has its wither, the ones no caller needs yet too: a caller that changes one group takes its wither
 * rather than naming all ten groups again through the constructor.
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
        @JsonUnwrapped NcclTests ncclTests) {

    /**
     * The sizes swept: -b, -e, -f, -i.
     *
     * @param max            -e; empty while not given and the backend not yet known: sweep/SpecForBackend resolves it
     *                       once, from the command's default where the backend keeps its buffers ({@link SweepProfile})
     * @param maxBytesSource where -e came from (the sentence of a lowered one is a header note)
     * @param stepFactor     -f (0 or 1: additive)
     */
    @JsonPropertyOrder({"min_bytes", "max_bytes", "max_bytes_source", "step_factor", "step_bytes"})
    public record SizeRange(@JsonProperty("min_bytes") long minBytes, @JsonIgnore OptionalLong max,
                            @JsonProperty("max_bytes_source") MaxBytesSource maxBytesSource,
                            @JsonProperty("step_factor") long stepFactor, @JsonProperty("step_bytes") long stepBytes) {

        /** A range whose -e is known (a result's, the resolved one). */
        @JsonCreator
        public SizeRange(@JsonProperty("min_bytes") long minBytes, @JsonProperty("max_bytes") long maxBytes,
                         @JsonProperty("max_bytes_source") MaxBytesSource maxBytesSource,
                         @JsonProperty("step_factor") long stepFactor, @JsonProperty("step_bytes") long stepBytes) {
            this(minBytes, OptionalLong.of(maxBytes), maxBytesSource, stepFactor, stepBytes);
        }

        /** -e as resolved; read before SpecForBackend resolved a default, it is a bug. */
        @JsonProperty("max_bytes")
        public long maxBytes() {
            return max.orElseThrow(() -> new IllegalStateException("-e was read before the backend resolved its default"));
        }

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

        /** The same checks and root with another type and op: one pass of -d all / -o all. */
        public Data with(DataType t, ReduceOp o) {
            return new Data(checkIters, o, t, root);
        }
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
     * @param perPeer TCP connections per pair of ranks (--sockets-per-peer)
     * @param ifname  NCCL_SOCKET_IFNAME-syntax list it binds with; null: NCCL's default order
     * @param algo    --socket-algo: the all_reduce algorithm, auto, ring, rd or rabenseifner
     * @param chunk   --socket-chunk: the reduction piece in bytes; 0: its default
     */
    @JsonPropertyOrder({"sockets_per_peer", "socket_ifname", "socket_algo", "socket_chunk"})
    public record SocketOptions(@JsonProperty("sockets_per_peer") int perPeer,
                                @JsonProperty("socket_ifname") String ifname,
                                @JsonProperty("socket_algo") String algo,
                                @JsonProperty("socket_chunk") long chunk) {

        /** The same transport bound to {@code list} (NCCL_SOCKET_IFNAME's syntax). */
        public SocketOptions boundTo(String list) {
            return new SocketOptions(perPeer, list, algo, chunk);
        }
    }

    /**
     * nccl-tests' lists and what the run made of them: the -d/-o lists swept, the pairs the backend skips, the rest
     * of nccl-tests' flags as given, and what nccl-tests reads from the environment (its split, alltoallv's spread).
     *
     * @param types           -d: the types swept in order (-d all: every one); empty: {@link Data#type} alone
     * @param ops             -o: nccl-tests' op names swept in order (-o all: every one, mulsum too); empty: {@link Data#op}
     * @param skipped         "type op" pairs the backend cannot reduce: -d all / -o all run the rest (SpecForBackend)
     * @param flags           the rest of nccl-tests' flags, as given
     * @param split           nccl-tests' split as set ("NCCL_TESTS_SPLIT=MOD 2", {@link NcclTestsSplit}); null: none
     * @param alltoallvSpread NCCL_TESTS_ALLTOALLV_SPREAD as set where alltoallv runs; null: unset, or no alltoallv
     */
    @JsonPropertyOrder({"types", "ops", "skipped", "flags", "split", "alltoallv_spread"})
    public record NcclTests(@JsonProperty("types") List<DataType> types, @JsonProperty("ops") List<String> ops,
                            @JsonProperty("skipped") List<String> skipped, @JsonUnwrapped NcclTestsFlags flags,
                            @JsonProperty("split") @JsonInclude(JsonInclude.Include.NON_NULL) String split,
                            @JsonProperty("alltoallv_spread") @JsonInclude(JsonInclude.Include.NON_NULL)
                            String alltoallvSpread) {
        /** No list, nothing skipped, no flag given, nothing from the environment. */
        public static final NcclTests NONE = new NcclTests(null, null, null, NcclTestsFlags.NONE, null, null);

        public NcclTests {
            types = types == null ? List.of() : List.copyOf(types);
            ops = ops == null ? List.of() : List.copyOf(ops);
            skipped = skipped == null ? List.of() : List.copyOf(skipped);
            flags = flags == null ? NcclTestsFlags.NONE : flags;
        }

        /** -d and -o as given, with the rest of the flags; nothing skipped, nothing from the environment yet. */
        public NcclTests(List<DataType> types, List<String> ops, NcclTestsFlags flags) {
            this(types, ops, null, flags, null, null);
        }

        /** The same, with the pairs the backend cannot run. */
        public NcclTests withSkipped(List<String> s) {
            return new NcclTests(types, ops, s, flags, split, alltoallvSpread);
        }

        /**
         * The same, with what nccl-tests reads from the environment: its split ("NCCL_TESTS_SPLIT=MOD 2",
         * {@link NcclTestsSplit}) and alltoallv's spread (NCCL_TESTS_ALLTOALLV_SPREAD's value), each null when unset.
         */
        public NcclTests withEnvironment(String splitAssignment, String spread) {
            return new NcclTests(types, ops, skipped, flags, splitAssignment, spread);
        }
    }

    /**
     * nccl-tests' remaining flags, with its meanings (src/common.cu of v2.19.6).
     *
     * @param outputFile       -J: nccl-tests' own JSON (version 3) written here; null: none
     * @param reportCputime    -C 1: the time column is the host's time to issue the calls
     * @param reportTimestamps -S 1: a timestamp column
     * @param perIterSkip      -K: leading per-iteration samples left out of the i_* statistics
     * @param unalign          -u: buffers start this many elements past their allocation
     * @param memoryReport     -M 1: the memory report after the table
     * @param parallelInit     -p 1: threads initialise their communicators concurrently (nccl backend)
     * @param localRegister    -R: 1 local, 2 symmetric buffer registration (nccl backend)
     * @param gpuOnly          the flags given that only a GPU backend honours, "-R 1 (local_register): what it does"
     */
    @JsonPropertyOrder({"nccl_tests_json", "report_cputime", "report_timestamps", "per_iter_skip", "unalign",
            "memory_report", "parallel_init", "local_register", "gpu_only_flags"})
    public record NcclTestsFlags(@JsonProperty("nccl_tests_json") @JsonSerialize(using = ToStringSerializer.class) Path outputFile,
                                 @JsonProperty("report_cputime") int reportCputime,
                                 @JsonProperty("report_timestamps") int reportTimestamps,
                                 @JsonProperty("per_iter_skip") int perIterSkip, @JsonProperty("unalign") int unalign,
                                 @JsonProperty("memory_report") int memoryReport,
                                 @JsonProperty("parallel_init") int parallelInit,
                                 @JsonProperty("local_register") int localRegister,
                                 @JsonProperty("gpu_only_flags") List<String> gpuOnly) {
        /** None given: nccl-tests' defaults, every one 0. */
        public static final NcclTestsFlags NONE = new NcclTestsFlags(null, 0, 0, 0, 0, 0, 0, 0, null);

        public NcclTestsFlags {
            gpuOnly = gpuOnly == null ? List.of() : List.copyOf(gpuOnly);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public RunSpec withCollectives(List<String> v) {
        return new RunSpec(v, range, iterations, data, timing, devices, placement, outputs, socket, ncclTests);
    }

    public RunSpec withRange(SizeRange v) {
        return new RunSpec(collectives, v, iterations, data, timing, devices, placement, outputs, socket, ncclTests);
    }

    public RunSpec withIterations(Iterations v) {
        return new RunSpec(collectives, range, v, data, timing, devices, placement, outputs, socket, ncclTests);
    }

    public RunSpec withData(Data v) {
        return new RunSpec(collectives, range, iterations, v, timing, devices, placement, outputs, socket, ncclTests);
    }

    public RunSpec withTiming(Timing v) {
        return new RunSpec(collectives, range, iterations, data, v, devices, placement, outputs, socket, ncclTests);
    }

    public RunSpec withDevices(Devices v) {
        return new RunSpec(collectives, range, iterations, data, timing, v, placement, outputs, socket, ncclTests);
    }

    public RunSpec withPlacement(Placement v) {
        return new RunSpec(collectives, range, iterations, data, timing, devices, v, outputs, socket, ncclTests);
    }

    public RunSpec withOutputs(Outputs v) {
        return new RunSpec(collectives, range, iterations, data, timing, devices, placement, v, socket, ncclTests);
    }

    public RunSpec withSocket(SocketOptions v) {
        return new RunSpec(collectives, range, iterations, data, timing, devices, placement, outputs, v, ncclTests);
    }

    public RunSpec withNcclTests(NcclTests v) {
        return new RunSpec(collectives, range, iterations, data, timing, devices, placement, outputs, socket, v);
    }

    /** The sizes of the sweep in order, exactly as nccl-tests steps them. */
    public List<Long> sizes() {
        return Sizes.steps(range.minBytes(), range.maxBytes(), range.stepFactor(), range.stepBytes());
    }

    /** The watchdog: -T, or {@link Defaults#WATCHDOG_SECONDS} when -T is 0. */
    public long timeoutMillis() {
        return Defaults.watchdogMillis(timing.timeoutSeconds());
    }

    /** -d as swept: the -d all list, else the one type. */
    public List<DataType> types() {
        return ncclTests.types().isEmpty() ? List.of(data.type()) : ncclTests.types();
    }

    /** -o as swept, by nccl-tests' names: the -o all list, else the one op. */
    public List<String> ops() {
        return ncclTests.ops().isEmpty() ? List.of(data.op().label()) : ncclTests.ops();
    }

    /**
     * The collective {@code name} as this sweep runs it: alltoallv with the spread every rank agreed on
     * (NCCL_TESTS_ALLTOALLV_SPREAD), every other as the registry has it; null when the name is unknown.
     */
    public Collective collective(String name) {
        return Collectives.byName(name, ncclTests.alltoallvSpread());
    }

    /**
     * Names each field it sets; a field left unset is its flag's default, read from {@link SweepFlag}'s table, but -e:
     * not given, resolved once the backend is known (sweep/SpecForBackend). The fields that are no flag: no output file,
     * {@link Defaults#OUT_DIR}, NCCL's interface order, no nccl-tests list. Like JMH's OptionsBuilder, the command line, fleet and tests each set what they resolved and nothing
     * else. A new field is one line here, its setter and its place in {@link #build}.
     */
    public static final class Builder {
        private List<String> collectives = List.of(SweepFlag.COLLECTIVE.defaultText());
        private long minBytes = SweepFlag.MIN_BYTES.defaultLong();
        private OptionalLong maxBytes = OptionalLong.empty(); // not given: resolved once the backend is known
        private MaxBytesSource maxBytesSource = MaxBytesSource.DEFAULT;
        private long stepFactor = SweepFlag.STEP_FACTOR.defaultLong(), stepBytes = SweepFlag.STEP_BYTES.defaultLong();
        private int iters = SweepFlag.ITERS.defaultInt(), warmupIters = SweepFlag.WARMUP_ITERS.defaultInt();
        private int aggIters = SweepFlag.AGG_ITERS.defaultInt(), repeat = SweepFlag.REPEAT.defaultInt();
        private int checkIters = SweepFlag.CHECK_ITERS.defaultInt(), root = SweepFlag.ROOT.defaultInt();
        private ReduceOp op = ReduceOp.parse(SweepFlag.OP.defaultText());
        private DataType type = DataType.parse(SweepFlag.TYPE.defaultText());
        private int average = SweepFlag.AVERAGE.defaultInt(), blocking = SweepFlag.BLOCKING.defaultInt();
        private int timeoutSeconds = SweepFlag.TIMEOUT.defaultInt();
        private int gpusPerThread = SweepFlag.GPUS_PER_THREAD.defaultInt(), threads = SweepFlag.THREADS.defaultInt();
        private int cudaGraph = SweepFlag.CUDA_GRAPH.defaultInt(), perIterTiming = SweepFlag.PER_ITER_TIMING.defaultInt();
        private String backend = SweepFlag.BACKEND.defaultText();
        private int localRanks = SweepFlag.LOCAL_RANKS.defaultInt();
        private Path jsonFile, outDir = Defaults.OUT_DIR;
        private int socketsPerPeer = SweepFlag.SOCKETS_PER_PEER.defaultInt();
        private String socketIfname, socketAlgo = SweepFlag.SOCKET_ALGO.defaultText();
        private long socketChunk = SweepFlag.SOCKET_CHUNK.defaultLong();
        private NcclTests ncclTests = NcclTests.NONE;

        private Builder() {
        }

        public Builder collectives(List<String> v) { collectives = v; return this; }
        public Builder minBytes(long v) { minBytes = v; return this; }
        public Builder maxBytes(long v) { maxBytes = OptionalLong.of(v); return this; }
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
        public Builder ncclTests(NcclTests v) { ncclTests = v; return this; }

        /** All of -b, -e, -f, -i at once, e.g. from {@link SweepProfile#range}. */
        public Builder range(SizeRange r) {
            minBytes = r.minBytes();
            maxBytes = r.max();
            return maxBytesSource(r.maxBytesSource()).stepFactor(r.stepFactor()).stepBytes(r.stepBytes());
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
