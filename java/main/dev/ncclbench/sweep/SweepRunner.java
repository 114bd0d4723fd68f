package dev.ncclbench.sweep;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.Redactor;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendChecks;
import dev.ncclbench.backend.BackendChoice;
import dev.ncclbench.backend.Backends;
import dev.ncclbench.diagnosis.RouteInputs;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.Variable;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.launch.CpuBinding;
import dev.ncclbench.launch.LaunchDetector;
import dev.ncclbench.launch.LaunchInfo;
import dev.ncclbench.launch.LaunchOptions;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.rendezvous.Gathers;
import dev.ncclbench.rendezvous.JobSecret;
import dev.ncclbench.rendezvous.Rendezvous;
import dev.ncclbench.results.OutputPaths;
import dev.ncclbench.results.RunFolder;
import dev.ncclbench.spec.MeasuredFlags;
import dev.ncclbench.spec.NcclTestsSplit;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.SweepProfile;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One sweep end to end: who am I (launch), which backend and with what (backend SPI), rendezvous, the run's folder
 * (results), the backend opened, every local rank's sweep, then rank 0's report (docs/architecture.md draws it). The
 * backend is chosen and its spec resolved before the rendezvous, so that a bad request (exit 2) or an unready machine
 * (exit 3) stops before any rank waits at the store; it is opened after the rendezvous.
 */
public final class SweepRunner {
    private final RunSpec asked;
    private final LaunchOptions launchOptions;
    private final PrintWriter out;
    private final PrintWriter err;
    private final Host host;
    private final RouteInputs path;
    /** Rank 0's result JSON once the run has begun; null elsewhere (for sweep --html). */
    private volatile java.nio.file.Path resultFile;
    private List<String> commandLine = List.of();
    private SweepProfile profile = SweepProfile.SWEEP;

    /**
     * @param host the machine and its environment, as the command line built it (a test builds its own: nccl-tests'
     *             NCCL_TESTS_SPLIT, a launcher's variables)
     */
    public SweepRunner(RunSpec spec, LaunchOptions launch, RouteInputs path, PrintWriter out, PrintWriter err,
                Host host) {
        this.asked = spec;
        this.path = path;
        this.launchOptions = launch;
        this.out = out;
        this.err = err;
        this.host = host;
    }

    /** The command as typed, recorded in the result (URL passwords redacted). */
    public SweepRunner withCommandLine(List<String> argv) {
        List<String> clean = new ArrayList<>();
        argv.forEach(a -> clean.add(Redactor.urls(a)));
        this.commandLine = List.copyOf(clean);
        return this;
    }

    /** The defaults the spec's unset -e came from (preflight's shorter sweep; the sweep's own by default). */
    public SweepRunner withProfile(SweepProfile p) {
        this.profile = p;
        return this;
    }

    /** The result JSON this process wrote (rank 0), when the run got that far. */
    public java.util.Optional<java.nio.file.Path> resultFile() {
        return java.util.Optional.ofNullable(resultFile);
    }

    public ExitCode run() {
        try (Signals signals = Signals.install(err)) {
            // before the ranks exist there is nothing to keep: a signal ends the process as the JVM would
            signals.onSignal(() -> System.exit(signals.exitCode().code));
            return run(signals);
        }
    }

    private ExitCode run(Signals signals) {
        // nccl-tests' split: read (and refused when malformed) before anything starts; the backends open one
        // communicator per group from the spec. alltoallv's spread goes into the spec too: the ranks agree on both
        NcclTestsSplit split = NcclTestsSplit.of(host.get(Variable.NCCL_TESTS_SPLIT_MASK), host.get(Variable.NCCL_TESTS_SPLIT));
        String spread = this.asked.collectives().contains("alltoallv") ? host.get(Variable.NCCL_TESTS_ALLTOALLV_SPREAD) : null;
        RunSpec asked = split == null && spread == null ? this.asked
                : this.asked.withNcclTests(this.asked.ncclTests().withEnvironment(split == null ? null : split.assignment(), spread));
        LaunchInfo launch = LaunchDetector.detect(host, launchOptions.rank(), launchOptions.worldSize());
        Backend askedFor = Backends.byName(asked.placement().backend());
        if (askedFor != null) {
            // a bad request is exit 2 before an unready machine is exit 3
            askedFor.refuse(asked);
            BackendChecks.refuseIdleFlags(askedFor, asked);
        }
        BackendChoice choice = BackendChoice.choose(asked, launch.singleNode(), host);
        if (choice.announce()) {
            // the sweep's first line: a backend other than the one auto tries first, and why (the table's first line
            // says it again, for a stdout read on its own)
            err.println("ncclbench: " + choice.line());
        }
        Backend backend = choice.backend();
        BackendChecks.refuseIdleFlags(backend, asked);
        // the places this run writes, checked before anything runs; the run folder holds the JSON and NCCL's logs
        boolean runFolder = asked.outputs().jsonFile() == null || backend.capabilities().contains(Capability.NCCL_LOG);
        if (launch.rank() == 0) {
            OutputPaths.checkJsonFile(asked.outputs().jsonFile());
            OutputPaths.checkJsonFile(asked.ncclTests().flags().outputFile(), "-J");
        }
        if (runFolder) {
            OutputPaths.checkOutDir(asked.outputs().outDir());
        }
        List<String> notes = new ArrayList<>();
        RunSpec spec = SpecForBackend.resolve(asked, backend, launch, profile, host, notes);
        if (path.description() != null) {
            notes.add("path judged against: " + path.description());
        }
        int world = SpecForBackend.world(spec, backend, launch);
        int groupSize = world;
        if (split != null) {
            // one colour per control plane (nccl-tests: per process; its -g GPUs share it)
            NcclTestsSplit.Groups groups = split.groups(launch.size() * spec.placement().localRanks());
            notes.add(split.assignment() + ": " + groups + " ranks, run side by side (nccl-tests' split); the bandwidth"
                    + " is per group");
            groupSize = world / groups.count();
        }
        Skips.add(spec, groupSize, host, notes);
        if ((spec.timing().blocking() == 1 || spec.timing().blocking() == 3) && world > 1) {
            // one rank meets nobody (free, as nccl-tests); several meet at rank 0's store, which costs a round trip
            notes.add("-z " + spec.timing().blocking() + ": the per-iteration barrier goes through rank 0's rendezvous store (a TCP"
                    + " round trip, tens of us on loopback)" + (spec.timing().blocking() == 1 ? " and is inside the timed loop, as"
                    + " nccl-tests' is; its cost is in the time column" : "; untimed, as nccl-tests' -z 3"));
        }
        if (backend.capabilities().contains(Capability.EVENT_TIMING) && spec.devices().perIterTiming() == 0) {
            notes.add(spec.devices().cudaGraph() > 0
                    ? "no per-iteration samples under -G (only whole replays are timed): gate and report judge the table's"
                    + " time by tolerance alone"
                    : "per-iteration samples for gate and report: after each placement's check, -n more iterations timed"
                    + " by CUDA events; the table is the first loop's host time, as nccl-tests'");
        }
        if (launch.size() == 1) {
            checkBeforeTheSweep(backend, spec, world, notes);
        }
        String length = SweepLength.note(spec, backend.capabilities().contains(Capability.DEVICE_MEMORY), groupSize);
        if (length != null) {
            // before it starts, on stderr too: a table sent to a file says it only there
            notes.add(length);
            if (launch.rank() == 0) {
                err.println("ncclbench: " + length);
                err.flush();
            }
        }

        try (Rendezvous rdv = Rendezvous.start(launch, spec.placement().localRanks(), launchOptions.rendezvous(), host, spec.timeoutMillis(),
                MeasuredFlags.of(asked))) {
            List<ControlPlane> planes = rdv.planes();
            if (!rdv.authenticated()) {
                notes.add(JobSecret.NOT_AUTHENTICATED); // the header and the JSON's notes: whoever reads the figures is told
            }
            if (launch.size() > 1) {
                try {
                    // this host's memory may differ from the others': a refusal here stops every rank at once
                    checkBeforeTheSweep(backend, spec, world, notes);
                } catch (NcclbenchException e) {
                    throw planes.get(0).fault(true, e.exitCode(), "the checks before the sweep",
                            "rank " + planes.get(0).rank() + ": " + e.getMessage());
                }
            }
            // rank 0 names the run's folder, so that every process of a node writes its NCCL log beside the JSON
            String name = RunFolder.name(backend.name(), Instant.now(), ProcessHandle.current().pid());
            byte[] named = Gathers.fromRankZero(planes, "run-folder", name.getBytes(StandardCharsets.UTF_8));
            spec = spec.withOutputs(new RunSpec.Outputs(spec.outputs().jsonFile(),
                    spec.outputs().outDir().resolve(new String(named, StandardCharsets.UTF_8))));
            if (runFolder) {
                RunFolder.create(spec.outputs().outDir());
            }
            List<RankComm> comms = backend.open(spec, planes, launch.localRank(), host);
            // a GPU backend's library places its own threads (NCCL binds to the GPU's CPUs)
            boolean place = launchOptions.cpuBind() && !comms.get(0).capabilities().contains(Capability.PLACES_OWN_THREADS);
            CpuBinding binding = place ? CpuBinding.plan(launch, comms.size(), launchOptions.rendezvous()) : CpuBinding.none();
            if (binding.note() != null) {
                notes.add(binding.note());
            }
            if (place) {
                notes.add(CpuBinding.lowerCompilerPriority(JitSettle.compilerThreads()));
            }
            // from here a signal stops the ranks (aborted: their threads may be inside a call) and the run ends
            // "interrupted" with its rows; the close after joining releases what is left
            signals.onSignal(() -> comms.forEach(RankComm::abort));
            LinkNotes.add(comms, notes);
            try {
                SweepReport report = launch.rank() == 0 ? SweepReport.begin(spec, asked.placement().backend(), commandLine, launch, choice, comms,
                        planes, notes, host, out, err)
                        : SweepReport.follower(launch, comms, planes);
                resultFile = report.jsonFile();
                RuntimeException failure = sweepAll(spec, comms, planes, report, signals, binding);
                try {
                    // every node's NCCL choices, not only rank 0's node's: its logs stay on its own disk
                    List<NodeChoices.Message> nodes = failure == null && launch.size() > 1
                            ? NodeChoices.gather(planes, launch, comms, spec.outputs().outDir()) : List.of();
                    return report.end(failure, comms, path, nodes);
                } finally {
                    Gathers.exitTogether(planes);
                }
            } finally {
                comms.forEach(RankComm::close);
            }
        }
    }

    private static void checkBeforeTheSweep(Backend backend, RunSpec spec, int world, List<String> notes) {
        BackendChecks.validate(backend, spec, world);
        SizeNotes.add(spec, world, notes);
    }

    /** Every local rank's sweep on its own thread; the first failure closes every local rank so the others fail fast. */
    private RuntimeException sweepAll(RunSpec spec, List<RankComm> comms, List<ControlPlane> planes, SweepReport report,
                                      Signals signals, CpuBinding binding) {
        Progress progress = report.reporter() && launchOptions.progress()
                ? Progress.start(Passes.rowCount(spec, comms.get(0).nranks()), err, host) : Progress.NONE;
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        AtomicReference<NcclbenchException> verdict = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < comms.size(); i++) {
            RankComm comm = comms.get(i);
            ControlPlane plane = planes.get(i);
            SweepEngine engine = new SweepEngine(spec, comm, plane, i == 0 ? report.listener() : null, progress::step);
            int index = i;
            Thread t = new Thread(() -> {
                String unbound = binding.bindCurrentThread(index);
                if (unbound != null) {
                    err.println("ncclbench: rank " + comm.rank() + " " + unbound + "; it runs unbound");
                    err.flush();
                }
                try {
                    try {
                        engine.run();
                    } catch (OutOfMemoryError oom) {
                        // this rank's own failure: say where, and what the JVM says it needed and had
                        throw new OwnFailure(ExitCode.RUN_FAILED, "rank " + comm.rank() + " ran out of memory at '"
                                + engine.step() + "': " + oom.getMessage() + "; lower -e or give the JVM more memory"
                                + " (NCCLBENCH_JAVA_OPTS=-Xmx...)");
                    }
                } catch (RuntimeException thrown) {
                    RuntimeException e = signals.received() == null ? thrown : new OwnFailure(signals.exitCode(),
                            "rank " + comm.rank() + " stopped by " + signals.received() + " at '" + engine.step() + "'");
                    boolean first = failure.compareAndSet(null, e);
                    if (first) {
                        // the first failure is the cause; aborting every local rank makes the others fail fast
                        // (abort, not close: the other ranks' threads may be inside a call)
                        comms.forEach(RankComm::abort);
                    }
                    // the store turns every rank's account into one verdict, the same on every rank: the rank
                    // that failed first, not a neighbour that stopped because of it
                    NcclbenchException v = plane.fault(first && isOwnFailure(e), asExit(e).exitCode(), engine.step(),
                            e.getMessage());
                    if (first) {
                        verdict.set(v);
                    }
                }
            }, "ncclbench-rank" + comm.rank());
            threads.add(t);
            t.start();
        }
        Gathers.joinAll(threads);
        progress.close();
        if (failure.get() != null) {
            return verdict.get();
        }
        try {
            Gathers.barrier(planes, "done");
        } catch (RuntimeException e) {
            return e;
        }
        return null;
    }

    /** Waiting too long for a peer, or losing one, is a peer's failure; anything else is this rank's own. */
    static boolean isOwnFailure(RuntimeException f) {
        return !(f instanceof NcclbenchException ne)
                || ne instanceof OwnFailure
                || (ne.exitCode() != ExitCode.TIMEOUT && ne.exitCode() != ExitCode.RUN_FAILED);
    }

    /** A failure of this rank itself (out of memory, a signal) whatever its exit code: the others stop at once. */
    static final class OwnFailure extends NcclbenchException {
        private static final long serialVersionUID = 1L;

        OwnFailure(ExitCode code, String message) {
            super(code, message);
        }
    }

    /** The failure as the command's exit: ours as they are, anything else an internal error. */
    static NcclbenchException asExit(RuntimeException f) {
        return f instanceof NcclbenchException ne ? ne : new NcclbenchException(ExitCode.INTERNAL, f.toString(), f);
    }
}
