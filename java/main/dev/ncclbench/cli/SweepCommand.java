package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.baseline.BaselineStore;
import dev.ncclbench.gate.GateJudge;
import dev.ncclbench.gate.GateOptions;
import dev.ncclbench.launch.LaunchOptions;
import dev.ncclbench.report.RunReport;
import dev.ncclbench.spec.Defaults;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.Sizes;
import dev.ncclbench.sweep.RouteInputs;
import dev.ncclbench.sweep.RouteOptions;
import dev.ncclbench.sweep.SweepRunner;
import dev.ncclbench.output.OutputTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** `ncclbench sweep`: nccl-tests' flags with their letters and meanings. */
@Command(name = "sweep", sortOptions = false, versionProvider = VersionProvider.class,
        description = "Run collectives over a range of sizes and print the nccl-tests table.",
        footer = "%nSizes take binary K, M, G suffixes (1K = 1024); fractions are allowed (1.5G).")
public final class SweepCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    // -V is nccl-tests' device_cta_count (NcclTestsFlags): the version is --version alone
    @Option(names = "--version", versionHelp = true, description = "Print version information and exit.")
    boolean version;

    @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Minimum size (default: 8 B on GPUs, 32M with -e given alone)")
    Long minBytes;

    @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Maximum size (default: 8G on GPUs; from free memory on sockets)")
    Long maxBytes;

    @Option(names = {"-f", "--stepfactor"}, paramLabel = "N", converter = Ranges.StepFactor.class,
            description = "Multiplicative step; wins over -i when > 1 (default: 2 for the default sweep, else 1)")
    Long stepFactor;

    @Option(names = {"-i", "--stepbytes"}, paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Additive step (default: 1M)")
    long stepBytes = Defaults.STEP_BYTES;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", converter = Ranges.Positive.class,
            description = "Timed iterations per size (default: ${DEFAULT-VALUE})")
    int iters = Defaults.ITERS;

    @Option(names = {"-w", "--warmup_iters"}, paramLabel = "N", converter = Ranges.NonNegative.class,
            description = "Warm-up iterations per size (default: ${DEFAULT-VALUE})")
    int warmup = Defaults.WARMUP_ITERS;

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

    @Option(names = {"-T", "--timeout"}, paramLabel = "SECONDS", converter = Ranges.NonNegative.class,
            description = "Abort and exit 5 when a rank makes no progress this long; 0 = the "
            + Defaults.WATCHDOG_SECONDS + " s watchdog (default: ${DEFAULT-VALUE})")
    int timeout = 0;

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

    @Option(names = "--collective", paramLabel = "NAME[,NAME]", description = "all_reduce (default), all_gather,"
            + " reduce_scatter, broadcast, reduce, alltoall, sendrecv, gather, scatter, or all")
    String collective = Defaults.COLLECTIVE;

    @Option(names = "--backend", paramLabel = "NAME", converter = Choices.Backend.class,
            completionCandidates = Choices.BackendNames.class, description = "${COMPLETION-CANDIDATES} (default:"
            + " ${DEFAULT-VALUE}: nccl when a GPU and NCCL are usable, else socket)")
    String backend = Defaults.BACKEND;

    @Option(names = "--ranks", paramLabel = "N", converter = Ranges.LocalRanks.class, description = "Local ranks as"
            + " threads of this process (socket backend; default: 4, or 1 per process under a launcher)")
    Integer ranks;

    @Option(names = "--sockets-per-peer", paramLabel = "N", converter = Ranges.SocketsPerPeer.class,
            description = "TCP connections per ring neighbour (socket backend, default: ${DEFAULT-VALUE})")
    int socketsPerPeer = Defaults.SOCKETS_PER_PEER;

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

    @Option(names = "--json", paramLabel = "FILE", description = "JSON result file (default: <out>/<run>/result.json)")
    Path json;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: ${DEFAULT-VALUE})")
    Path out = Defaults.OUT_DIR;

    @Option(names = "--force", description = "replace an existing --json file (without it an earlier run's file is refused)")
    boolean force;

    @Mixin
    NcclTestsFlags ncclTests = new NcclTestsFlags();

    @Mixin
    LaunchFlags launchFlags = new LaunchFlags();

    @Option(names = "--no-progress", description = "No progress bar, even on a terminal")
    boolean noProgress;

    @Mixin
    FabricFlags fabricFlags = new FabricFlags();

    @Mixin
    SocketFloorFlag floor = new SocketFloorFlag();

    @Option(names = "--html", paramLabel = "FILE", description = "Also write the HTML report of this run (as ncclbench report --html)")
    Path html;

    @Override
    public Integer call() {
        // the outputs before anything runs: a minute of measuring is never lost to a bad path or an earlier file
        OutputTarget.check("--html", html);
        if (json != null && !force && java.nio.file.Files.isRegularFile(json)) {
            throw NcclbenchException.usage("--json " + json + " already exists (an earlier run's result); choose"
                    + " another name, or --force to replace it");
        }
        RunSpec runSpec = resolve();
        LaunchOptions launch = launch();
        RouteInputs path = path();
        List<String> argv = new ArrayList<>(List.of("ncclbench"));
        argv.addAll(spec.root().commandLine().getParseResult().originalArgs());
        SweepRunner runner = new SweepRunner(runSpec, launch, path, spec.commandLine().getOut(),
                spec.commandLine().getErr()).withCommandLine(argv);
        try {
            return runner.run().code;
        } finally {
            if (html != null) {
                // gate's: the same HTML as `ncclbench report RUN.json --html F`, even after a failed run's rows
                runner.resultFile().filter(java.nio.file.Files::isRegularFile).ifPresent(f -> RunReport.htmlFor(f, html,
                        htmlJudge(), spec.commandLine().getErr()));
            }
        }
    }

    LaunchOptions launch() {
        return new LaunchOptions(launchFlags.rendezvous, launchFlags.rank, launchFlags.worldSize, ranks != null, !noProgress,
                cpuBind == Choices.CpuBind.core);
    }

    RouteInputs path() {
        return RouteOptions.resolve(fabricFlags.fabric, fabricFlags.catalog, floor.socketFloor);
    }

    /** The gate of `ncclbench report RUN.json` with this sweep's --fabric, --catalog and --socket-floor. */
    private GateJudge htmlJudge() {
        return new GateJudge(BaselineStore.DEFAULT_DIR, GateOptions.defaults(), fabricFlags.fabric, fabricFlags.catalog,
                floor.socketFloor, Set.of());
    }

    /** Turns the flags into a RunSpec; picocli checked each value, this checks how they go together (exit 2). */
    RunSpec resolve() {
        List<Collective> colls = parse(() -> Collectives.parseList(collective));
        List<String> collNames = new ArrayList<>();
        colls.forEach(c -> collNames.add(c.name()));

        boolean defaultSweep = minBytes == null && maxBytes == null;
        // -e alone: -b is nccl-tests' 32M, or -e when that is smaller (a sweep of one size, never "-b above -e")
        long min = minBytes != null ? minBytes : defaultSweep ? Defaults.SWEEP_MIN_BYTES
                : Math.min(Defaults.NCCL_TESTS_BYTES, maxBytes);
        long max;
        String maxSource;
        if (maxBytes != null) {
            max = maxBytes;
            maxSource = "flag";
        } else if (defaultSweep) {
            max = Defaults.SWEEP_MAX_BYTES;
            maxSource = "default";
        } else {
            max = Math.max(min, Defaults.NCCL_TESTS_BYTES);
            maxSource = "default";
        }
        if (minBytes != null && maxBytes == null && min > max) {
            max = min;
        }
        if (min > max) {
            throw NcclbenchException.usage("-b " + Sizes.human(min) + " (" + min + " bytes) is above -e "
                    + Sizes.human(max) + " (" + max + " bytes)");
        }
        long factor = stepFactor == null ? (defaultSweep ? Defaults.SWEEP_STEP_FACTOR : Defaults.STEP_FACTOR) : stepFactor;
        if (factor <= 1 && stepBytes <= 0 && min < max) {
            throw NcclbenchException.usage("-i must be above 0 when -f is 1 or less, or the sweep would not advance");
        }
        int localRanks = ranks == null ? 0 : ranks;
        // -d all, -o all, -o mulsum: nccl-tests' lists; the spec's one type and op are the first until the backend is known
        List<DataType> types = type.equals("all") ? List.of(DataType.values()) : List.of();
        List<String> ops = op.equals("all") ? Choices.NCCL_TESTS_OPS : ReduceOp.parse(op) == null ? List.of(op) : List.of();
        DataType oneType = types.isEmpty() ? DataType.parse(type) : Defaults.TYPE;
        ReduceOp oneOp = ReduceOp.parse(op) == null ? Defaults.OP : ReduceOp.parse(op);
        if (ncclTests.perIterSkip >= iters) {
            throw NcclbenchException.usage("-K " + ncclTests.perIterSkip + " leaves no sample of -n " + iters
                    + "; it must be below -n, as nccl-tests");
        }
        return RunSpec.builder().collectives(collNames)
                .minBytes(min).maxBytes(max).maxBytesSource(maxSource).stepFactor(factor).stepBytes(stepBytes)
                .iters(iters).warmupIters(warmup).aggIters(agg).repeat(repeat)
                .checkIters(check).op(oneOp).type(oneType).root(root)
                .average(average).blocking(blocking).timeoutSeconds(timeout)
                .gpusPerThread(gpus).threads(threads).cudaGraph(graph).perIterTiming(perIter)
                .backend(backend).localRanks(localRanks)
                .jsonFile(json).outDir(out)
                .socketsPerPeer(socketsPerPeer).socketIfname(System.getenv("NCCL_SOCKET_IFNAME"))
                .socketAlgo(socketAlgo.name()).socketChunk(socketChunk)
                .ncclTests(ncclTests.toSpec(types, ops))
                .build();
    }

    private static <T> T parse(java.util.function.Supplier<T> s) {
        try {
            return s.get();
        } catch (IllegalArgumentException e) {
            throw NcclbenchException.usage(e.getMessage());
        }
    }

}
