package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backends;
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
import dev.ncclbench.sweep.PathInputs;
import dev.ncclbench.sweep.PathOptions;
import dev.ncclbench.sweep.SweepRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** `ncclbench sweep`: nccl-tests' flags with their letters and meanings. */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run collectives over a range of sizes and print the nccl-tests table.",
        footer = "%nSizes take binary K, M, G suffixes (1K = 1024); fractions are allowed (1.5G).")
public final class SweepCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", description = "Minimum size (default: 8 B on GPUs, 32M with -e given alone)")
    String minBytes;

    @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", description = "Maximum size (default: 8G on GPUs; from free memory on sockets)")
    String maxBytes;

    @Option(names = {"-f", "--stepfactor"}, paramLabel = "N", description = "Multiplicative step; wins over -i when > 1 (default: 2 for the default sweep, else 1)")
    Long stepFactor;

    @Option(names = {"-i", "--stepbytes"}, paramLabel = "SIZE", description = "Additive step (default: 1M)")
    String stepBytes;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", description = "Timed iterations per size (default: 20)")
    Integer iters;

    @Option(names = {"-w", "--warmup_iters"}, paramLabel = "N", description = "Warm-up iterations per size (default: 1)")
    Integer warmup;

    @Option(names = {"-m", "--agg_iters"}, paramLabel = "N", description = "Collectives aggregated per iteration (default: 1)")
    Integer agg;

    @Option(names = {"-N", "--run_cycles"}, paramLabel = "N", description = "Repeat the whole sweep N times (default: 1)")
    Integer repeat;

    @Option(names = {"-c", "--check"}, paramLabel = "N", description = "Correctness-check iterations after timing; 0 = off (default: 1)")
    Integer check;

    @Option(names = {"-o", "--op"}, paramLabel = "OP", description = "sum, prod, max, min, avg (default: sum)")
    String op;

    @Option(names = {"-d", "--datatype"}, paramLabel = "TYPE", description = "int8 uint8 int32 uint32 int64 uint64 half float double bfloat16 (default: float)")
    String type;

    @Option(names = {"-r", "--root"}, paramLabel = "RANK", description = "Root rank for rooted collectives; -1 = every root (default: 0)")
    Integer root;

    @Option(names = {"-a", "--average"}, paramLabel = "0-3", description = "Combine per-rank times: 0 rank 0, 1 mean, 2 min, 3 max (default: 1)")
    Integer average;

    @Option(names = {"-z", "--blocking"}, paramLabel = "0-3", description = "0 none; 1 wait+barrier after each op; 2 wait; 3 barrier per iteration (default: 0)")
    Integer blocking;

    @Option(names = {"-T", "--timeout"}, paramLabel = "SECONDS", description = "Abort and exit 5 when a rank makes no progress this long; 0 = the "
            + Defaults.WATCHDOG_SECONDS + " s watchdog (default: 0)")
    Integer timeout;

    @Option(names = {"-g", "--ngpus"}, paramLabel = "N", description = "GPUs per thread (nccl backend, default: 1)")
    Integer gpus;

    @Option(names = {"-t", "--nthreads"}, paramLabel = "N", description = "Threads per process (nccl backend, default: 1)")
    Integer threads;

    @Option(names = {"-G", "--cudagraph"}, paramLabel = "N", description = "Capture the timed loop in a CUDA graph and replay it (nccl backend, default: 0)")
    Integer graph;

    @Option(names = {"-I", "--per_iter_timing"}, paramLabel = "0|1", description = "Per-iteration device timing with CUDA events: the samples of the JSON (nccl backend, default: 0, none)")
    Integer perIter;

    @Option(names = "--collective", paramLabel = "NAME[,NAME]", description = "all_reduce (default), all_gather, reduce_scatter, broadcast, reduce, alltoall, sendrecv, gather, scatter, or all")
    String collective = Defaults.COLLECTIVE;

    @Option(names = "--backend", paramLabel = "auto|nccl|socket", description = "Backend (default: auto: nccl when a GPU and NCCL are usable, else socket)")
    String backend = Defaults.BACKEND;

    @Option(names = "--ranks", paramLabel = "N", description = "Local ranks as threads of this process (socket backend; default: 4, or 1 per process under a launcher)")
    Integer ranks;

    @Option(names = "--sockets-per-peer", paramLabel = "N", description = "TCP connections per ring neighbour (socket backend, default: 2)")
    Integer socketsPerPeer;

    @Option(names = "--socket-algo", paramLabel = "auto|ring|rd|rabenseifner", description = "all_reduce algorithm of the"
            + " socket backend: rd (recursive doubling, fewest steps), ring (least bytes per rank), rabenseifner (the ring's"
            + " bytes in 2 log2(n) steps), auto (rd for small sizes, then rabenseifner on 4, 8, 16... ranks and the ring"
            + " otherwise; the crossover in the header; default)")
    String socketAlgo;

    @Option(names = "--socket-chunk", paramLabel = "SIZE", description = "the socket backend's reduction piece: received bytes"
            + " are reduced in pieces of this size while the rest arrive (4K to 64M, default: 512K)")
    String socketChunk;

    @Option(names = "--cpu-bind", paramLabel = "core|none", description = "core: bind each rank's thread to a CPU of its"
            + " own, by its index on the node, as mpirun --bind-to core, and run the JIT compiler at nice 19 (socket"
            + " backend; default); none: leave both to the scheduler")
    String cpuBind;

    @Option(names = "--json", paramLabel = "FILE", description = "JSON result file (default: <out>/<run>/result.json)")
    Path json;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: results/runs)")
    Path out = Defaults.OUT_DIR;

    @Option(names = "--rendezvous", paramLabel = "HOST:PORT", description = "Rank 0's store address (default: MASTER_ADDR:MASTER_PORT, or loopback for one-node jobs)")
    String rendezvous;

    @Option(names = "--rank", paramLabel = "N", description = "This process's rank, when no launcher sets it")
    Integer rank;

    @Option(names = "--world-size", paramLabel = "N", description = "Number of processes, when no launcher sets it")
    Integer worldSize;

    @Option(names = "--no-progress", description = "No progress bar, even on a terminal")
    boolean noProgress;

    @Option(names = "--fabric", paramLabel = "ID", description = "The fabric this job should use, from the catalog (e.g. ib-hdr, roce-100g, eth-10g, nvlink4): busbw is judged against its line rate")
    String fabric;

    @Option(names = "--catalog", paramLabel = "FILE", description = "Fabric catalog (default: results/baselines/fabric-catalog.txt when present, else the built-in copy)")
    Path catalog;

    @Option(names = "--socket-floor", paramLabel = "GBPS|FILE", description = "What the socket backend reached on the same interface: GB/s, or a socket run's result JSON (its largest size's busbw)")
    String socketFloor;

    @Option(names = "--html", paramLabel = "FILE", description = "Also write the HTML report of this run (as ncclbench report --html)")
    Path html;

    private boolean cpuBind() {
        String v = cpuBind == null ? "core" : cpuBind.trim().toLowerCase(java.util.Locale.ROOT);
        if (!v.equals("core") && !v.equals("none")) {
            throw NcclbenchException.usage("--cpu-bind must be core or none, got '" + cpuBind + "'");
        }
        return v.equals("core");
    }

    @Override
    public Integer call() {
        RunSpec runSpec = resolve();
        LaunchOptions launch = launch();
        PathInputs path = path();
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
        return new LaunchOptions(rendezvous, rank, worldSize, ranks != null, !noProgress, cpuBind());
    }

    PathInputs path() {
        return PathOptions.resolve(fabric, catalog, socketFloor);
    }

    /** The gate of `ncclbench report RUN.json` with this sweep's --fabric, --catalog and --socket-floor. */
    private GateJudge htmlJudge() {
        return new GateJudge(BaselineStore.DEFAULT_DIR, GateOptions.defaults(), fabric, catalog, socketFloor, Set.of());
    }

    /** Turns the flags into a RunSpec; an impossible request is exit 2 with one sentence. */
    RunSpec resolve() {
        List<Collective> colls = parse(() -> Collectives.parseList(collective));
        List<String> collNames = new ArrayList<>();
        colls.forEach(c -> collNames.add(c.name()));

        String backendName = backend.trim().toLowerCase(java.util.Locale.ROOT);
        if (!backendName.equals("auto") && Backends.byName(backendName) == null) {
            throw NcclbenchException.usage("unknown backend '" + backend + "'; known: auto, " + String.join(", ", Backends.names()));
        }
        DataType dt = type == null ? Defaults.TYPE : DataType.parse(type);
        if (dt == null) {
            throw NcclbenchException.usage("unknown data type '" + type + "'; known: " + DataType.names());
        }
        ReduceOp rop = op == null ? Defaults.OP : ReduceOp.parse(op);
        if (rop == null) {
            if (op.trim().equalsIgnoreCase("mulsum") || op.trim().equalsIgnoreCase("all")) {
                throw NcclbenchException.usage("operator '" + op + "' is not supported; use one of " + ReduceOp.names());
            }
            throw NcclbenchException.usage("unknown reduction operator '" + op + "'; known: " + ReduceOp.names());
        }

        boolean defaultSweep = minBytes == null && maxBytes == null;
        // -e alone: -b is nccl-tests' 32M, or -e when that is smaller (a sweep of one size, never "-b above -e")
        long min = minBytes != null ? size("-b", minBytes) : defaultSweep ? Defaults.SWEEP_MIN_BYTES
                : Math.min(Defaults.NCCL_TESTS_BYTES, size("-e", maxBytes));
        long max;
        String maxSource;
        if (maxBytes != null) {
            max = size("-e", maxBytes);
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
            throw NcclbenchException.usage("-b " + minBytes + " (" + min + " bytes) is above -e " + maxBytes + " (" + max + " bytes)");
        }
        long factor = stepFactor == null ? (defaultSweep ? Defaults.SWEEP_STEP_FACTOR : Defaults.STEP_FACTOR) : stepFactor;
        if (factor < 0) {
            throw NcclbenchException.usage("-f must be 0 or more, got " + factor);
        }
        long step = stepBytes == null ? Defaults.STEP_BYTES : size("-i", stepBytes);
        if (factor <= 1 && step <= 0 && min < max) {
            throw NcclbenchException.usage("-i must be above 0 when -f is 1 or less, or the sweep would not advance");
        }

        int n = positive("-n", iters, Defaults.ITERS);
        int w = atLeast("-w", warmup, Defaults.WARMUP_ITERS, 0);
        int m = positive("-m", agg, Defaults.AGG_ITERS);
        int cycles = positive("-N", repeat, Defaults.RUN_CYCLES);
        int c = atLeast("-c", check, Defaults.CHECK_ITERS, 0);
        int r = root == null ? Defaults.ROOT : root;
        if (r < -1) {
            throw NcclbenchException.usage("-r must be a rank or -1 (every root), got " + r);
        }
        int a = average == null ? Defaults.AVERAGE : average;
        if (a < 0 || a > 3) {
            throw NcclbenchException.usage("-a must be 0 (rank 0), 1 (mean), 2 (min) or 3 (max), got " + a);
        }
        int z = blocking == null ? Defaults.BLOCKING : blocking;
        if (z < 0 || z > 3) {
            throw NcclbenchException.usage("-z must be 0, 1, 2 or 3, got " + z);
        }
        int t = atLeast("-T", timeout, 0, 0);
        int g = positive("-g", gpus, Defaults.GPUS_PER_THREAD);
        int th = positive("-t", threads, Defaults.THREADS);
        int gr = atLeast("-G", graph, Defaults.CUDA_GRAPH, 0);
        int pi = perIter == null ? Defaults.PER_ITER_TIMING : perIter;
        if (pi != 0 && pi != 1) {
            throw NcclbenchException.usage("-I must be 0 or 1, got " + pi);
        }
        int localRanks = ranks == null ? 0 : ranks;
        if (ranks != null && ranks < 1) {
            throw NcclbenchException.usage("--ranks must be 1 or more, got " + ranks);
        }
        if (ranks != null && ranks > Defaults.MAX_LOCAL_RANKS) {
            throw NcclbenchException.usage("--ranks " + ranks + " is more than " + Defaults.MAX_LOCAL_RANKS
                    + " local ranks: each is a thread with its own buffers and connections to every other rank;"
                    + " run more processes instead (mpirun -np N, torchrun --nproc_per_node N)");
        }
        int spp = positive("--sockets-per-peer", socketsPerPeer, Defaults.SOCKETS_PER_PEER);
        if (spp > Defaults.MAX_SOCKETS_PER_PEER) {
            throw NcclbenchException.usage("--sockets-per-peer must be " + Defaults.MAX_SOCKETS_PER_PEER + " or less, got " + spp);
        }
        String algo = socketAlgo == null ? Defaults.SOCKET_ALGO : socketAlgo.trim().toLowerCase(java.util.Locale.ROOT);
        if (!List.of("auto", "ring", "rd", "rabenseifner").contains(algo)) {
            throw NcclbenchException.usage("--socket-algo must be auto, ring, rd or rabenseifner, got '" + socketAlgo + "'");
        }
        long chunk = socketChunk == null ? Defaults.SOCKET_CHUNK : size("--socket-chunk", socketChunk);
        if (socketChunk != null && (chunk < (4 << 10) || chunk > (64 << 20) || chunk % 8 != 0)) {
            throw NcclbenchException.usage("--socket-chunk must be a multiple of 8 from 4K to 64M, got " + socketChunk);
        }
        return RunSpec.builder().collectives(collNames)
                .minBytes(min).maxBytes(max).maxBytesSource(maxSource).stepFactor(factor).stepBytes(step)
                .iters(n).warmupIters(w).aggIters(m).repeat(cycles)
                .checkIters(c).op(rop).type(dt).root(r)
                .average(a).blocking(z).timeoutSeconds(t)
                .gpusPerThread(g).threads(th).cudaGraph(gr).perIterTiming(pi)
                .backend(backendName).localRanks(localRanks)
                .jsonFile(json).outDir(out)
                .socketsPerPeer(spp).socketIfname(System.getenv("NCCL_SOCKET_IFNAME")).socketAlgo(algo).socketChunk(chunk)
                .build();
    }

    private static long size(String flag, String text) {
        try {
            long v = Sizes.parse(text);
            if (v < 0) {
                throw new IllegalArgumentException("negative size");
            }
            return v;
        } catch (IllegalArgumentException e) {
            throw NcclbenchException.usage(flag + ": " + e.getMessage());
        }
    }

    private static int positive(String flag, Integer v, int dflt) {
        return atLeast(flag, v, dflt, 1);
    }

    private static int atLeast(String flag, Integer v, int dflt, int min) {
        if (v == null) {
            return dflt;
        }
        if (v < min) {
            throw NcclbenchException.usage(flag + " must be " + min + " or more, got " + v);
        }
        return v;
    }

    private static <T> T parse(java.util.function.Supplier<T> s) {
        try {
            return s.get();
        } catch (IllegalArgumentException e) {
            throw NcclbenchException.usage(e.getMessage());
        }
    }

}
