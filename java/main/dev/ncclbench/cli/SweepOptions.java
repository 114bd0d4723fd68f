package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.launch.LaunchOptions;
import dev.ncclbench.spec.Defaults;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.SweepProfile;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The sweep's flags, nccl-tests' letters and meanings, shared by `ncclbench sweep` and `ncclbench preflight` (and
 * preflight's --sweep-arg, parsed by the same options): one declaration each, resolved into a {@link RunSpec} once
 * by {@link #spec}. The flags whose default depends on the command take it from the command's {@link SweepProfile}:
 * -n and -w when the options are made (so the help shows them), -b, -e and -f stay null until {@link #spec}. -n, -w,
 * -T, --backend and --sockets-per-peer are fleet's too: their mixins are shared with it.
 */
final class SweepOptions {
    @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Minimum size (default: 8 B; 32M with -e given alone, as nccl-tests, and then the sizes step by"
            + " -i 1M: -e 1G alone is 993 sizes; a sweep of 5 min or more says how long before it starts)")
    Long minBytes;

    @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Maximum size (default: 8G with GPUs, 128M on sockets, lowered to what fits; preflight: 1G or"
            + " 64M; 32M with -b given alone, as nccl-tests)")
    Long maxBytes;

    @Option(names = {"-f", "--stepfactor"}, paramLabel = "N", converter = Ranges.StepFactor.class,
            description = "Multiplicative step; wins over -i when > 1 (default: 2 for the default sweep, 1 with -b or -e"
            + " given, as nccl-tests; preflight: 4)")
    Long stepFactor;

    @Option(names = {"-i", "--stepbytes"}, paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Additive step (default: 1M)")
    long stepBytes = Defaults.STEP_BYTES;

    /** -n, -w: the profile's defaults until given (made in the constructor, from the profile). */
    @Mixin
    IterationFlags iterations;

    @Option(names = {"-m", "--agg_iters"}, paramLabel = "N", converter = Ranges.Positive.class,
            description = "Collectives aggregated per iteration (default: ${DEFAULT-VALUE})")
    int agg = Defaults.AGG_ITERS;

    @Option(names = {"-N", "--run_cycles"}, paramLabel = "N", converter = Ranges.Positive.class,
            description = "Repeat the whole sweep N times (default: ${DEFAULT-VALUE})")
    int repeat = Defaults.RUN_CYCLES;

    @Option(names = {"-c", "--check"}, paramLabel = "N", converter = Ranges.NonNegative.class,
            description = "Correctness-check iterations after timing; 0 = off (default: ${DEFAULT-VALUE})")
    int check = Defaults.CHECK_ITERS;

    @Option(names = {"-o", "--op"}, paramLabel = "OP", converter = Choices.Op.class, completionCandidates = Choices.OpNames.class,
            description = "${COMPLETION-CANDIDATES} (default: sum; mulsum and all as nccl-tests: the pairs a"
            + " backend cannot run are skipped and named)")
    String op = Defaults.OP.label();

    @Option(names = {"-d", "--datatype"}, paramLabel = "TYPE", converter = Choices.Type.class,
            completionCandidates = Choices.TypeNames.class, description = "${COMPLETION-CANDIDATES} (default: float)")
    String type = Defaults.TYPE.label();

    @Option(names = {"-r", "--root"}, paramLabel = "RANK", converter = Ranges.RootRank.class,
            description = "Root rank for rooted collectives; -1 or all = every root (default: ${DEFAULT-VALUE})")
    int root = Defaults.ROOT;

    @Option(names = {"-a", "--average"}, paramLabel = "0-3", converter = Ranges.Average.class,
            description = "Combine per-rank times: 0 rank 0, 1 mean, 2 min, 3 max (default: ${DEFAULT-VALUE})")
    int average = Defaults.AVERAGE;

    @Option(names = {"-z", "--blocking"}, paramLabel = "0-3", converter = Ranges.Blocking.class,
            description = "0 none; 1 wait+barrier after each op; 2 wait; 3 barrier per iteration (default: ${DEFAULT-VALUE})")
    int blocking = Defaults.BLOCKING;

    @Mixin
    WatchdogFlag watchdog = new WatchdogFlag();

    @Option(names = {"-g", "--ngpus"}, paramLabel = "N", converter = Ranges.Positive.class,
            description = "GPUs per thread (nccl backend, default: ${DEFAULT-VALUE})")
    int gpus = Defaults.GPUS_PER_THREAD;

    @Option(names = {"-t", "--nthreads"}, paramLabel = "N", converter = Ranges.Positive.class,
            description = "Threads per process (nccl backend, default: ${DEFAULT-VALUE})")
    int threads = Defaults.THREADS;

    @Option(names = {"-G", "--cudagraph"}, paramLabel = "N", converter = Ranges.NonNegative.class,
            description = "Capture the timed loop in a CUDA graph and replay it (nccl backend, default: ${DEFAULT-VALUE})")
    int graph = Defaults.CUDA_GRAPH;

    @Option(names = {"-I", "--per_iter_timing"}, paramLabel = "0|1", converter = Ranges.Switch.class,
            description = "Per-iteration timing (CUDA events on the nccl backend, the host clock on sockets): the"
            + " i_min, i_max, i_p99, i_cv%% columns as nccl-tests (default: ${DEFAULT-VALUE})")
    int perIter = Defaults.PER_ITER_TIMING;

    @Option(names = "--collective", paramLabel = "NAME[,NAME]", completionCandidates = Choices.CollectiveNames.class,
            description = "${COMPLETION-CANDIDATES}, or several with commas (default: ${DEFAULT-VALUE}); all: every one"
            + " with an NCCL call of its own, not nccl-tests' send/recv patterns")
    String collective = Defaults.COLLECTIVE;

    @Mixin
    BackendFlags backend = new BackendFlags();

    @Option(names = "--ranks", paramLabel = "N", converter = Ranges.LocalRanks.class, description = "Local ranks as"
            + " threads of this process (socket backend; default: 4, or 1 per process under a launcher)")
    Integer ranks;

    @Option(names = "--socket-algo", paramLabel = "ALGO", description = "all_reduce algorithm of the"
            + " socket backend, ${COMPLETION-CANDIDATES}: rd (recursive doubling, fewest steps), ring (least bytes per"
            + " rank), rabenseifner (the ring's bytes in 2 log2(n) steps), auto (rd for small sizes, then rabenseifner"
            + " on 4, 8, 16... ranks and the ring otherwise; the crossover in the header; default)")
    Choices.SocketAlgo socketAlgo = Choices.SocketAlgo.valueOf(Defaults.SOCKET_ALGO);

    @Option(names = "--socket-chunk", paramLabel = "SIZE", converter = Ranges.SocketChunk.class, description = "the"
            + " socket backend's reduction piece: received bytes are reduced in pieces of this size while the rest"
            + " arrive (4K to 64M, default: 512K)")
    long socketChunk = Defaults.SOCKET_CHUNK;

    @Option(names = "--cpu-bind", paramLabel = "MODE", description = "${COMPLETION-CANDIDATES}; core: bind each"
            + " rank's thread to a CPU of its own, by its index on the node, as mpirun --bind-to core, and run the JIT"
            + " compiler at nice 19 (socket backend; default); none: leave both to the scheduler")
    Choices.CpuBind cpuBind = Choices.CpuBind.core;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: ${DEFAULT-VALUE})")
    Path out = Defaults.OUT_DIR;

    @Mixin
    NcclTestsFlags ncclTests = new NcclTestsFlags();

    @Mixin
    LaunchFlags launchFlags = new LaunchFlags();

    /** The command's defaults: sweep's or preflight's. */
    private final SweepProfile profile;

    /** The sweep's flags of {@code profile}'s command: -n and -w show and take its defaults. */
    SweepOptions(SweepProfile profile) {
        this.profile = profile;
        this.iterations = new IterationFlags(profile.iters(), profile.warmupIters());
    }

    LaunchOptions launch(boolean progress) {
        return new LaunchOptions(launchFlags.rendezvous, launchFlags.rank, launchFlags.worldSize, ranks != null, progress,
                cpuBind == Choices.CpuBind.core);
    }

    /**
     * The flags as a RunSpec: picocli checked each value, this checks how they go together (exit 2).
     *
     * @param socketIfname NCCL_SOCKET_IFNAME as this process has it: the socket backend binds by the same rules
     */
    RunSpec spec(Path json, String socketIfname) {
        List<Collective> colls = parse(() -> Collectives.parseList(collective));
        List<String> collNames = new ArrayList<>();
        colls.forEach(c -> collNames.add(c.name()));
        RunSpec.SizeRange range = parse(() -> profile.range(minBytes, maxBytes, stepFactor, stepBytes));
        int n = iterations.iters;
        // -d all, -o all, -o mulsum: nccl-tests' lists; the spec's one type and op are the first until the backend is known
        List<DataType> types = type.equals("all") ? List.of(DataType.values()) : List.of();
        List<String> ops = op.equals("all") ? Choices.NCCL_TESTS_OPS : ReduceOp.parse(op) == null ? List.of(op) : List.of();
        DataType oneType = types.isEmpty() ? DataType.parse(type) : Defaults.TYPE;
        ReduceOp oneOp = ReduceOp.parse(op) == null ? Defaults.OP : ReduceOp.parse(op);
        if (ncclTests.perIterSkip >= n) {
            throw NcclbenchException.usage("-K " + ncclTests.perIterSkip + " leaves no sample of -n " + n
                    + "; it must be below -n, as nccl-tests");
        }
        return RunSpec.builder().collectives(collNames).range(range)
                .iters(n).warmupIters(iterations.warmup).aggIters(agg).repeat(repeat)
                .checkIters(check).op(oneOp).type(oneType).root(root)
                .average(average).blocking(blocking).timeoutSeconds(watchdog.timeout)
                .gpusPerThread(gpus).threads(threads).cudaGraph(graph).perIterTiming(perIter)
                .backend(backend.backend).localRanks(ranks == null ? 0 : ranks)
                .jsonFile(json).outDir(out)
                .socketsPerPeer(backend.socketsPerPeer).socketIfname(socketIfname)
                .socketAlgo(socketAlgo.name()).socketChunk(socketChunk)
                .ncclTests(ncclTests.toSpec(types, ops))
                .build();
    }

    private static <T> T parse(Supplier<T> s) {
        try {
            return s.get();
        } catch (IllegalArgumentException e) {
            throw NcclbenchException.usage(e.getMessage());
        }
    }
}
