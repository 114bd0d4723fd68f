package dev.ncclbench.spec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The sweep's flags, one entry each: what the command line calls it, what the result's "spec" calls it, its type and
 * default, which backends honour it, whether every rank must agree on it, whether a baseline is keyed by it and
 * whether a baseline measured with another value is refused. {@link MeasuredFlags} (the rendezvous' agreement), the
 * baseline's fingerprint, the gate's admission, the idle-flag refusal and {@link RunSpec.Builder}'s defaults all read
 * this table: a new flag is one entry here, its option and converter in cli, and the code that uses it.
 *
 * <p>Only the flags of {@link RunSpec} are here; the ones that choose where a run writes or what it prints (--json,
 * --html, --no-progress, --force) or how it is launched (--rank, --rendezvous) are not measured and not recorded.
 */
public enum SweepFlag {
    COLLECTIVE(null, "--collective", "collectives", Defaults.COLLECTIVE, null, Agree.YES, Keyed.BY_BASELINE_ENTRIES,
            s -> String.join(",", s.collectives())),
    MIN_BYTES("-b", "--minbytes", "min_bytes", Defaults.SWEEP_MIN_BYTES, null, Agree.YES, Keyed.NO, s -> s.range().minBytes()),
    /** Null (not given) until the backend is known: the default depends on where it keeps its buffers. */
    MAX_BYTES("-e", "--maxbytes", "max_bytes", Defaults.SWEEP_MAX_BYTES, null, Agree.YES, Keyed.NO,
            s -> s.range().max().isPresent() ? s.range().maxBytes() : null),
    STEP_FACTOR("-f", "--stepfactor", "step_factor", Defaults.SWEEP_STEP_FACTOR, null, Agree.YES, Keyed.NO,
            s -> s.range().stepFactor()),
    STEP_BYTES("-i", "--stepbytes", "step_bytes", Defaults.STEP_BYTES, null, Agree.YES, Keyed.NO, s -> s.range().stepBytes()),
    ITERS("-n", "--iters", "iters", Defaults.ITERS, null, Agree.YES, Keyed.NO, s -> s.iterations().iters()),
    WARMUP_ITERS("-w", "--warmup_iters", "warmup_iters", Defaults.WARMUP_ITERS, null, Agree.YES, Keyed.NO,
            s -> s.iterations().warmupIters()),
    AGG_ITERS("-m", "--agg_iters", "agg_iters", Defaults.AGG_ITERS, null, Agree.YES, Keyed.ALWAYS, s -> s.iterations().aggIters()),
    REPEAT("-N", "--run_cycles", "repeat", Defaults.RUN_CYCLES, null, Agree.YES, Keyed.NO, s -> s.iterations().repeat()),
    CHECK_ITERS("-c", "--check", "check_iters", Defaults.CHECK_ITERS, null, Agree.YES, Keyed.NO, s -> s.data().checkIters()),
    OP("-o", "--op", "op", Defaults.OP.label(), null, Agree.YES, Keyed.ALWAYS,
            s -> s.data().op() == null ? "" : s.data().op().label()),
    TYPE("-d", "--datatype", "type", Defaults.TYPE.label(), null, Agree.YES, Keyed.ALWAYS,
            s -> s.data().type() == null ? "" : s.data().type().label()),
    ROOT("-r", "--root", "root", Defaults.ROOT, null, Agree.YES, Keyed.NO, s -> s.data().root()),
    AVERAGE("-a", "--average", "average", Defaults.AVERAGE, null, Agree.YES, Keyed.ALWAYS, s -> s.timing().average()),
    BLOCKING("-z", "--blocking", "blocking", Defaults.BLOCKING, null, Agree.YES, Keyed.ALWAYS, s -> s.timing().blocking()),
    /** Not agreed: a rank with a shorter watchdog gives up sooner, and every figure is the same. */
    TIMEOUT("-T", "--timeout", "timeout_seconds", 0, null, Agree.NO, Keyed.NO, s -> s.timing().timeoutSeconds()),
    GPUS_PER_THREAD("-g", "--ngpus", "gpus_per_thread", Defaults.GPUS_PER_THREAD, Capability.GPUS_PER_THREAD, Agree.YES,
            Keyed.NO, s -> s.devices().gpusPerThread()),
    THREADS("-t", "--nthreads", "threads", Defaults.THREADS, Capability.THREADS, Agree.YES, Keyed.NO, s -> s.devices().threads()),
    CUDA_GRAPH("-G", "--cudagraph", "cuda_graph", Defaults.CUDA_GRAPH, Capability.CUDA_GRAPH, Agree.YES, Keyed.ALWAYS,
            s -> s.devices().cudaGraph()),
    PER_ITER_TIMING("-I", "--per_iter_timing", "per_iter_timing", Defaults.PER_ITER_TIMING, null, Agree.YES, Keyed.NO,
            s -> s.devices().perIterTiming()),
    BACKEND(null, "--backend", "backend", Defaults.BACKEND, null, Agree.YES, Keyed.BY_TOPOLOGY, s -> s.placement().backend()),
    /** 0 until resolved: the launcher's one rank per process, else {@link Defaults#LOCAL_RANKS_STANDALONE}. */
    LOCAL_RANKS(null, "--ranks", "local_ranks", 0, Capability.LOCAL_RANKS, Agree.YES, Keyed.NO, s -> s.placement().localRanks()),
    SOCKETS_PER_PEER(null, "--sockets-per-peer", "sockets_per_peer", Defaults.SOCKETS_PER_PEER,
            Capability.SOCKET_INTERFACE, Agree.YES, Keyed.WHEN_HONOURED, s -> s.socket().perPeer()),
    /** Keyed only when set: a baseline recorded before the flag existed ran the default. */
    SOCKET_ALGO(null, "--socket-algo", "socket_algo", Defaults.SOCKET_ALGO, Capability.SOCKET_INTERFACE, Agree.YES,
            Keyed.WHEN_SET, s -> s.socket().algo()),
    SOCKET_CHUNK(null, "--socket-chunk", "socket_chunk", Defaults.SOCKET_CHUNK, Capability.SOCKET_INTERFACE, Agree.YES,
            Keyed.WHEN_SET, s -> s.socket().chunk()),
    /** -C 1 changes what the time column is: every rank's time must be the same kind. */
    REPORT_CPUTIME("-C", "--report_cputime", "report_cputime", 0, null, Agree.YES, Keyed.NO,
            s -> s.ncclTests().flags().reportCputime()),
    UNALIGN("-u", "--unalign", "unalign", 0, Capability.DEVICE_MEMORY, Agree.YES, Keyed.NO,
            s -> s.ncclTests().flags().unalign()),
    LOCAL_REGISTER("-R", "--local_register", "local_register", 0, Capability.BUFFER_REGISTRATION, Agree.YES, Keyed.NO,
            s -> s.ncclTests().flags().localRegister()),
    PER_ITER_SKIP("-K", "--per_iter_skip", "per_iter_skip", 0, null, Agree.NO, Keyed.NO,
            s -> s.ncclTests().flags().perIterSkip());

    /** Whether every process of one job must present the same value at the rendezvous. */
    public enum Agree { YES, NO }

    /** Whether, and how, a baseline is keyed by the flag (its fingerprint's "measurement", or elsewhere). */
    public enum Keyed {
        NO,
        /** In every fingerprint. */
        ALWAYS,
        /** When the run's backend honours the flag. */
        WHEN_HONOURED,
        /** When the backend honours it and it is not its default. */
        WHEN_SET,
        /** By the baseline's entries (one per collective and size). */
        BY_BASELINE_ENTRIES,
        /** By the fingerprint's topology. */
        BY_TOPOLOGY
    }

    private final String letter;
    private final String longName;
    private final String json;
    private final Object defaultValue;
    private final Capability needs;
    private final Agree agree;
    private final Keyed keyed;
    private final Function<RunSpec, Object> value;

    SweepFlag(String letter, String longName, String json, Object defaultValue, Capability needs, Agree agree,
              Keyed keyed, Function<RunSpec, Object> value) {
        this.letter = letter;
        this.longName = longName;
        this.json = json;
        this.defaultValue = defaultValue;
        this.needs = needs;
        this.agree = agree;
        this.keyed = keyed;
        this.value = value;
    }

    /** The short name when nccl-tests has one (-e), else the long one (--socket-chunk): as a user types it. */
    public String flag() {
        return letter != null ? letter : longName;
    }

    /** Whether nccl-tests has it (it has a letter): a nccl-tests command line may carry it. */
    public boolean isNcclTests() {
        return letter != null;
    }

    public String longName() {
        return longName;
    }

    /** Its name in the result's "spec", in the fingerprint and for --allow-changed. */
    public String json() {
        return json;
    }

    public Object defaultValue() {
        return defaultValue;
    }

    /** The default of a count or switch (-n, -c, -a): what {@link RunSpec.Builder} starts from. */
    public int defaultInt() {
        return (Integer) defaultValue;
    }

    /** The default of a size (-b, -e, -i, --socket-chunk). */
    public long defaultLong() {
        return (Long) defaultValue;
    }

    /** The default of a name (--backend, -o, -d), as the command line writes it. */
    public String defaultText() {
        return (String) defaultValue;
    }

    /** Its value's type as the spec holds it: Long (sizes), Integer (counts, switches) or String (names). */
    public Class<?> type() {
        return defaultValue.getClass();
    }

    /** The capability a backend must have to honour it; null when every backend does. */
    public Capability needs() {
        return needs;
    }

    public boolean mustAgree() {
        return agree == Agree.YES;
    }

    public Keyed keyed() {
        return keyed;
    }

    /** A baseline measured with another value is refused (unless --allow-changed names it). */
    public boolean refusedWhenChanged() {
        return keyed != Keyed.NO;
    }

    /** The value in {@code spec}, as a number, a string or a list. */
    public Object valueIn(RunSpec spec) {
        return value.apply(spec);
    }

    /** The value as the command line writes it: "-d float", "--socket-chunk 524288". */
    public String given(RunSpec spec) {
        Object v = valueIn(spec);
        return flag() + " " + (v == null ? "not given" : v);
    }

    /** Whether {@code spec} sets it to something other than its default. */
    public boolean isSet(RunSpec spec) {
        Object v = valueIn(spec);
        return v != null && !Objects.equals(String.valueOf(v), String.valueOf(defaultValue));
    }

    /** The flags keyed by the fingerprint's measurement, in table order. */
    public static List<SweepFlag> measured() {
        return Arrays.stream(values()).filter(f -> f.keyed == Keyed.ALWAYS || f.keyed == Keyed.WHEN_HONOURED
                || f.keyed == Keyed.WHEN_SET).toList();
    }

    /** The --allow-changed names of the flags a baseline is keyed by, in table order. */
    public static List<String> refusedNames() {
        List<String> out = new ArrayList<>();
        for (SweepFlag f : values()) {
            if (f.refusedWhenChanged()) {
                out.add(f == COLLECTIVE ? "collective" : f.json);
            }
        }
        return out;
    }
}
