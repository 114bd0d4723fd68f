package dev.ncclbench.sweep;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendChecks;
import dev.ncclbench.backend.BackendChoice;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.backend.nccl.NcclBackend;
import dev.ncclbench.launch.LaunchDetector;
import dev.ncclbench.launch.LaunchInfo;
import dev.ncclbench.launch.LaunchOptions;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.rendezvous.Gathers;
import dev.ncclbench.rendezvous.Rendezvous;
import dev.ncclbench.results.RunFolder;
import dev.ncclbench.spec.RunSpec;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One sweep end to end, in DESIGN.md's order: who am I (launch), which backend and with what (backend SPI),
 * rendezvous, the run's folder (results), every local rank's sweep, then rank 0's report.
 */
public final class SweepRunner {
    private final RunSpec asked;
    private final LaunchOptions launchOptions;
    private final PrintWriter out;
    private final PrintWriter err;
    private final Map<String, String> env;
    private final PathInputs path;

    public SweepRunner(RunSpec spec, LaunchOptions launch, PathInputs path, PrintWriter out, PrintWriter err) {
        this(spec, launch, path, out, err, System.getenv());
    }

    SweepRunner(RunSpec spec, LaunchOptions launch, PathInputs path, PrintWriter out, PrintWriter err,
                Map<String, String> env) {
        this.asked = spec;
        this.path = path;
        this.launchOptions = launch;
        this.out = out;
        this.err = err;
        this.env = env;
    }

    public ExitCode run() {
        LaunchInfo launch = LaunchDetector.detect(env, launchOptions.rank(), launchOptions.worldSize());
        if (asked.backend().equals("nccl")) {
            NcclBackend.validate(asked); // a bad request is exit 2 before an unready machine is exit 3
        }
        BackendChoice choice = BackendChoice.choose(asked, launch.singleNode());
        if (choice.announce()) {
            // one visible line on stderr; the header repeats it as "# Backend: ..."
            err.println("ncclbench: " + choice.reason());
        }
        Backend backend = choice.backend();
        List<String> notes = new ArrayList<>();
        RunSpec spec = SpecForBackend.resolve(asked, backend, launch, notes);
        if (path.description() != null) {
            notes.add("path judged against: " + path.description());
        }
        BackendChecks.validate(backend, spec, SpecForBackend.world(spec, backend, launch));

        try (Rendezvous rdv = Rendezvous.start(launch, spec.localRanks(), launchOptions.rendezvous(), env, spec.timeoutMillis())) {
            List<ControlPlane> planes = rdv.planes();
            // rank 0 names the run's folder, so that every process of a node writes its NCCL log beside the JSON
            String name = RunFolder.name(backend.name(), Instant.now(), ProcessHandle.current().pid());
            byte[][] named = Gathers.allLocal(planes, "run-folder", name.getBytes(StandardCharsets.UTF_8));
            spec = spec.withOutDir(spec.outDir().resolve(new String(named[0], StandardCharsets.UTF_8)));
            RunFolder.create(spec.outDir());
            List<RankComm> comms = backend.open(spec, planes, launch.localRank());
            try {
                Report report = launch.rank() == 0 ? Report.begin(spec, launch, choice, comms, planes, notes, env, out, err)
                        : Report.follower(launch, comms, planes);
                RuntimeException failure = sweepAll(spec, comms, planes, report);
                return report.end(failure, comms, path);
            } finally {
                comms.forEach(RankComm::close);
            }
        }
    }

    /** Every local rank's sweep on its own thread; the first failure closes every local rank so the others fail fast. */
    private RuntimeException sweepAll(RunSpec spec, List<RankComm> comms, List<ControlPlane> planes, Report report) {
        Progress progress = report.reporter() && launchOptions.progress()
                ? Progress.start(SweepEngine.rowCount(spec, comms.get(0).nranks()), err) : Progress.NONE;
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        AtomicReference<NcclbenchException> verdict = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < comms.size(); i++) {
            RankComm comm = comms.get(i);
            ControlPlane plane = planes.get(i);
            SweepEngine engine = new SweepEngine(spec, comm, plane, i == 0 ? report.listener() : null, progress::step);
            Thread t = new Thread(() -> {
                try {
                    engine.run();
                } catch (RuntimeException e) {
                    boolean first = failure.compareAndSet(null, e);
                    if (first) {
                        // the first failure is the cause; closing every local rank makes the others fail fast
                        comms.forEach(RankComm::close);
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
            Gathers.allLocal(planes, "done", new byte[0]);
        } catch (RuntimeException e) {
            return e;
        }
        return null;
    }

    /** Waiting too long for a peer, or losing one, is a peer's failure; anything else is this rank's own. */
    static boolean isOwnFailure(RuntimeException f) {
        return !(f instanceof NcclbenchException ne)
                || (ne.exitCode() != ExitCode.TIMEOUT && ne.exitCode() != ExitCode.RUN_FAILED);
    }

    /** The failure as the command's exit: ours as they are, anything else an internal error. */
    static NcclbenchException asExit(RuntimeException f) {
        return f instanceof NcclbenchException ne ? ne : new NcclbenchException(ExitCode.INTERNAL, f.toString(), f);
    }
}
