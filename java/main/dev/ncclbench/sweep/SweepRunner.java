package dev.ncclbench.sweep;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.Backends;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.backend.Readiness;
import dev.ncclbench.backend.nccl.NcclBackend;
import dev.ncclbench.backend.socket.SocketBackend;
import dev.ncclbench.cli.SweepCommand.LaunchOptions;
import dev.ncclbench.cli.VersionProvider;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.launch.LaunchDetector;
import dev.ncclbench.launch.LaunchInfo;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.diagnosis.Diagnosis;
import dev.ncclbench.diagnosis.Health;
import dev.ncclbench.diagnosis.PathClassifier;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import dev.ncclbench.results.PathVerdict;
import dev.ncclbench.results.RankInfo;
import dev.ncclbench.results.ResultRow;
import dev.ncclbench.results.ResultSink;
import dev.ncclbench.results.ResultSinks;
import dev.ncclbench.results.RunInfo;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.Sizes;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

/** Runs one sweep end to end: launch, backend choice, rendezvous, the ranks' sweeps, results. */
public final class SweepRunner {
    /** The socket backend's default -e: large enough to reach the bandwidth plateau on a 100G NIC. */
    static final long SOCKET_DEFAULT_MAX = 128L << 20;

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
        List<String> notes = new ArrayList<>();
        if (asked.backend().equals("nccl")) {
            NcclBackend.validate(asked); // a bad request is exit 2 before an unready machine is exit 3
        }
        // the socket backend binds loopback when every rank is on this node: judge its readiness on that
        boolean loopback = asked.socketIfname() == null && launch.singleNode();
        BackendChoice choice = chooseBackend(asked, loopback ? asked.withSocketIfname("lo") : asked);
        RunSpec spec = asked.withBackend(choice.backend.name());
        int localRanks = localRanks(spec, launch);
        spec = spec.withLocalRanks(localRanks);
        int world = launch.size() * localRanks * (choice.backend.name().equals("nccl") ? spec.gpusPerThread() : 1);
        if (choice.backend.name().equals("socket")) {
            spec = socketDefaults(spec, launch, localRanks, notes);
        }
        if (path.description() != null) {
            notes.add("path judged against: " + path.description());
        }
        validate(spec, world);

        try (Rendezvous rdv = Rendezvous.start(launch, localRanks, launchOptions.rendezvous(), env, spec.timeoutMillis())) {
            List<ControlPlane> planes = rdv.planes();
            // rank 0 names the run's folder, so that every process of a node writes its NCCL log beside the JSON
            String name = runName(choice.backend.name());
            byte[][] named = gatherAll(planes, "run-folder", name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            spec = spec.withOutDir(spec.outDir().resolve(new String(named[0], java.nio.charset.StandardCharsets.UTF_8)));
            mkdirs(spec.outDir());
            List<RankComm> comms = choice.backend.open(spec, planes, launch.localRank());
            try {
                return runRanks(spec, launch, choice, comms, planes, notes);
            } finally {
                comms.forEach(RankComm::close);
            }
        }
    }

    private record BackendChoice(Backend backend, String reason, Readiness readiness) {
    }

    /** @param socketSpec the spec the socket backend would run with (its interface resolved) */
    private BackendChoice chooseBackend(RunSpec spec, RunSpec socketSpec) {
        if (!spec.backend().equals("auto")) {
            Backend b = Backends.byName(spec.backend());
            Readiness r = b.readiness(b.name().equals("socket") ? socketSpec : spec);
            if (!r.ready()) {
                // `ncclbench env` lists everything found; the reason already names what matters
                throw new NcclbenchException(ExitCode.ENVIRONMENT, "the " + b.name() + " backend cannot run here: " + r.reason()
                        + (r.remedy() == null ? "" : "; " + r.remedy()));
            }
            return new BackendChoice(b, "asked with --backend " + b.name(), r);
        }
        Backend nccl = Backends.byName("nccl");
        Readiness nr = nccl.readiness(spec);
        if (nr.ready()) {
            return new BackendChoice(nccl, "auto: " + nr.found(), nr);
        }
        Backend socket = Backends.byName("socket");
        Readiness sr = socket.readiness(socketSpec);
        if (!sr.ready()) {
            throw new NcclbenchException(ExitCode.ENVIRONMENT, "no backend can run here: nccl: " + nr.reason() + "; socket: "
                    + sr.reason() + "; " + sr.remedy());
        }
        // one visible line on stderr; the header repeats it as "# Backend: ..."
        String why = "auto chose the socket backend: " + nr.reason();
        err.println("ncclbench: " + why);
        return new BackendChoice(socket, why, sr);
    }

    private static int localRanks(RunSpec spec, LaunchInfo launch) {
        if (spec.backend().equals("nccl")) {
            // one control-plane member per thread (-t); each drives -g GPUs in group calls
            return spec.threads();
        }
        if (spec.localRanks() > 0) {
            return spec.localRanks();
        }
        return launch.launcher().equals("none") ? 4 : 1;
    }

    private RunSpec socketDefaults(RunSpec spec, LaunchInfo launch, int localRanks, List<String> notes) {
        if (spec.socketIfname() == null && launch.singleNode()) {
            spec = spec.withSocketIfname("lo");
            notes.add("socket backend on loopback: every rank is on this node (set NCCL_SOCKET_IFNAME to measure a NIC)");
        }
        if ("default".equals(spec.maxBytesSource())) {
            // send, receive and scratch buffers per local rank must fit the JVM's direct memory with room to spare
            long budget = Runtime.getRuntime().maxMemory() / 2 / (3L * localRanks);
            long cap = Long.highestOneBit(Math.max(1 << 20, Math.min(SOCKET_DEFAULT_MAX, budget)));
            String why = "-e defaults to " + Sizes.human(cap) + " on the socket backend (the smaller of "
                    + Sizes.human(SOCKET_DEFAULT_MAX) + " and what " + localRanks + " local ranks x 3 buffers leave of "
                    + Sizes.human(Runtime.getRuntime().maxMemory()) + " of JVM memory); pass -e to change it";
            notes.add(why);
            spec = spec.withMaxBytes(cap, why);
        }
        return spec;
    }

    private static void validate(RunSpec spec, int world) {
        if (spec.root() >= world) {
            throw NcclbenchException.usage("-r " + spec.root() + " is not a rank of this " + world + "-rank job");
        }
        if (spec.backend().equals("socket")) {
            boolean reduces = false;
            for (String name : spec.collectives()) {
                Collective c = Collectives.byName(name);
                reduces |= c.reduces();
            }
            DataType t = spec.type();
            if (reduces && !SocketBackend.reduces(t)) {
                throw NcclbenchException.usage("the socket backend reduces float, double, int32 and int64, not " + t.label()
                        + "; use -d float, or --backend nccl");
            }
            if (spec.maxBytes() > (1L << 30)) {
                throw NcclbenchException.usage("the socket backend sweeps up to 1 GiB per buffer; -e " + spec.maxBytes()
                        + " is above that (use --backend nccl for larger sizes)");
            }
        }
    }

    private ExitCode runRanks(RunSpec spec, LaunchInfo launch, BackendChoice choice, List<RankComm> comms,
                              List<ControlPlane> planes, List<String> notes) {
        List<RankInfo> ranks = gatherRankInfo(launch, comms, planes);
        boolean reporter = launch.rank() == 0;
        ResultSink sink = null;
        Path jsonFile = null;
        List<ResultRow> rows = new ArrayList<>();
        int[] badRanks = new int[1];
        if (reporter) {
            jsonFile = jsonPath(spec);
            sink = ResultSinks.tee(ResultSinks.text(out), ResultSinks.json(jsonFile));
            List<String> logs = new ArrayList<>();
            for (RankComm c : comms) {
                c.logFiles().forEach(p -> logs.add(p.toString()));
            }
            RunInfo info = new RunInfo(VersionProvider.version(), DateTimeFormatter.ISO_INSTANT.format(Instant.now()),
                    choice.backend.name(), choice.reason, spec, comms.get(0).nranks(), versions(choice), ranks,
                    environment(env), logs, notes);
            sink.beginRun(info);
        }
        ResultSink reportTo = sink;
        // the socket backend knows its path; NCCL's is read from its own log once the sweep is over
        PathVerdict socketVerdict = choice.backend.name().equals("socket")
                ? PathClassifier.socketBackend(ranks.isEmpty() ? "?" : distinctDevices(ranks)) : null;
        SweepListener listener = !reporter ? null : new SweepListener() {
            @Override
            public void beginCollective(String collective) {
                reportTo.beginCollective(collective);
            }

            @Override
            public void row(ResultRow row, int wrongOop, int wrongIp) {
                if (socketVerdict != null) {
                    row = row.withVerdict(socketVerdict);
                }
                rows.add(row);
                badRanks[0] += wrongOop + wrongIp;
                reportTo.row(row);
            }

            @Override
            public void endCollective(String collective) {
                reportTo.endCollective(collective);
            }
        };
        Progress progress = reporter && launchOptions.progress()
                ? Progress.start(SweepEngine.rowCount(spec, comms.get(0).nranks()), err) : Progress.NONE;

        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < comms.size(); i++) {
            RankComm comm = comms.get(i);
            SweepEngine engine = new SweepEngine(spec, comm, planes.get(i), i == 0 ? listener : null, progress::step);
            Thread t = new Thread(() -> {
                try {
                    engine.run();
                } catch (RuntimeException e) {
                    if (failure.compareAndSet(null, e)) {
                        // the first failure is the cause; closing every local rank makes the others fail fast
                        comms.forEach(RankComm::close);
                    }
                }
            }, "ncclbench-rank" + comm.rank());
            threads.add(t);
            t.start();
        }
        joinAll(threads);
        progress.close();
        RuntimeException f = failure.get();
        if (f == null) {
            try {
                gatherAll(planes, "done", new byte[0]);
            } catch (RuntimeException e) {
                f = e;
            }
        }
        ExitCode verdictCode = ExitCode.OK;
        String verdictMessage = null;
        if (reporter && socketVerdict == null && !rows.isEmpty()) {
            Diagnosis d = diagnoseFromLogs(comms, spec.outDir(), rows, sink, comms.get(0).nranks());
            if (d != null && d.health() == Health.DEGRADED) {
                verdictCode = ExitCode.DEGRADED;
                verdictMessage = "degraded path: " + d.reason();
            }
        }
        if (reporter) {
            String status = f == null ? "ok" : f instanceof NcclbenchException ne && ne.exitCode() == ExitCode.TIMEOUT ? "timeout" : "failed";
            sink.finish(status, f == null ? null : f.getMessage());
            err.println("ncclbench: results in " + jsonFile);
        }
        if (f != null) {
            throw f instanceof NcclbenchException ? f : new NcclbenchException(ExitCode.INTERNAL, f.toString(), f);
        }
        if (verdictCode != ExitCode.OK && badRanks[0] == 0) {
            throw new NcclbenchException(verdictCode, verdictMessage);
        }
        if (badRanks[0] > 0) {
            throw new NcclbenchException(ExitCode.RUN_FAILED, "wrong results: " + badRanks[0]
                    + " (rank x row) pairs saw wrong elements; see #wrong in the table");
        }
        return ExitCode.OK;
    }

    private static String distinctDevices(List<RankInfo> ranks) {
        List<String> names = new ArrayList<>();
        for (RankInfo r : ranks) {
            if (!names.contains(r.device())) {
                names.add(r.device());
            }
        }
        return String.join(", ", names);
    }

    /**
     * Reads the NCCL logs the ranks of this process wrote, attaches a verdict to every row and prints the few
     * summary lines. Only rank 0's process's logs are here; on one node that is the whole job.
     */
    private Diagnosis diagnoseFromLogs(List<RankComm> comms, Path outDir, List<ResultRow> rows, ResultSink sink, int nranks) {
        List<Path> logs = new ArrayList<>();
        comms.forEach(c -> c.logFiles().stream().filter(Files::isRegularFile).forEach(logs::add));
        // the other processes of this node wrote theirs into the same run folder
        try (java.util.stream.Stream<Path> files = Files.list(outDir)) {
            files.filter(p -> p.getFileName().toString().startsWith("nccl.") && p.getFileName().toString().endsWith(".log"))
                    .filter(p -> !logs.contains(p)).sorted().forEach(logs::add);
        } catch (IOException e) {
            // no folder listing: the process's own logs are still there
        }
        Optional<NcclLogEvidence> evidence = Optional.empty();
        if (!logs.isEmpty()) {
            try {
                evidence = Optional.of(NcclLogReader.readAll(logs));
            } catch (IOException e) {
                err.println("ncclbench: could not read the NCCL log " + logs + ": " + e.getMessage());
            }
        }
        PathClassifier pc = new PathClassifier(nranks, evidence, path.socketFloor(), path.fabric());
        List<ResultRow> diagnosed = new ArrayList<>();
        for (ResultRow r : rows) {
            diagnosed.add(r.withVerdict(pc.classify(r)));
        }
        sink.verdicts(diagnosed);
        pc.summaryLines(diagnosed).forEach(out::println);
        out.flush();
        return pc.diagnosis().orElse(null);
    }

    /** Every local rank shares its RankInfo; rank 0's process gets the whole job's list. */
    private static List<RankInfo> gatherRankInfo(LaunchInfo launch, List<RankComm> comms, List<ControlPlane> planes) {
        ObjectMapper json = new ObjectMapper();
        byte[][] all = gatherAll(planes, "rankinfo", local -> {
            RankInfo ri = comms.get(local).info();
            ri = new RankInfo(ri.rank(), launch.localRank() * comms.size() + local, ri.host(), ri.pid(), ri.device());
            try {
                return json.writeValueAsBytes(ri);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        List<RankInfo> ranks = new ArrayList<>();
        for (byte[] b : all) {
            try {
                ranks.add(json.readValue(b, RankInfo.class));
            } catch (IOException e) {
                throw new NcclbenchException(ExitCode.RUN_FAILED, "a rank sent an unreadable description: " + e.getMessage());
            }
        }
        return ranks;
    }

    /** A gather over every local rank at once (each gather is collective, so one thread per local rank); rank 0's view. */
    private static byte[][] gatherAll(List<ControlPlane> planes, String tag, byte[] payload) {
        return gatherAll(planes, tag, local -> payload);
    }

    private static byte[][] gatherAll(List<ControlPlane> planes, String tag, java.util.function.IntFunction<byte[]> payloadOf) {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        AtomicReference<byte[][]> first = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < planes.size(); i++) {
            ControlPlane p = planes.get(i);
            int local = i;
            Thread t = new Thread(() -> {
                try {
                    byte[][] all = p.allGather(tag, payloadOf.apply(local));
                    if (local == 0) {
                        first.set(all);
                    }
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }, "ncclbench-" + tag);
            threads.add(t);
            t.start();
        }
        joinAll(threads);
        if (failure.get() != null) {
            throw failure.get();
        }
        return first.get();
    }

    private static void joinAll(List<Thread> threads) {
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new NcclbenchException(ExitCode.RUN_FAILED, "interrupted");
            }
        }
    }

    private static String runName(String backend) {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT).withZone(ZoneOffset.UTC).format(Instant.now());
        return stamp + "-" + backend + "-" + ProcessHandle.current().pid();
    }

    /** --json, else result.json in the run's folder. */
    private static Path jsonPath(RunSpec spec) {
        if (spec.jsonFile() != null) {
            Path parent = spec.jsonFile().toAbsolutePath().getParent();
            mkdirs(parent);
            return spec.jsonFile();
        }
        return spec.outDir().resolve("result.json");
    }

    private static void mkdirs(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new NcclbenchException(ExitCode.USAGE, "cannot create the output folder " + dir + ": " + e.getMessage());
        }
    }

    private static Map<String, String> versions(BackendChoice choice) {
        Map<String, String> v = new TreeMap<>();
        v.put("ncclbench", VersionProvider.version());
        v.put("java", System.getProperty("java.version"));
        v.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        if (choice.readiness.found() != null) {
            v.put(choice.backend.name(), choice.readiness.found());
        }
        return v;
    }

    /** The NCCL_, CUDA_ and launcher variables that explain a run; anything that looks secret is redacted. */
    static Map<String, String> environment(Map<String, String> env) {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, String> e : env.entrySet()) {
            String k = e.getKey();
            if (k.startsWith("NCCL_") || k.startsWith("CUDA_") || k.startsWith("UCX_") || k.startsWith("SLURM_")
                    || k.startsWith("OMPI_COMM_WORLD") || k.startsWith("NCCLBENCH_") || k.equals("MASTER_ADDR")
                    || k.equals("MASTER_PORT") || k.equals("WORLD_SIZE") || k.equals("RANK") || k.equals("LOCAL_RANK")
                    || k.equals("LD_LIBRARY_PATH")) {
                String upper = k.toUpperCase(Locale.ROOT);
                boolean secret = upper.contains("KEY") || upper.contains("TOKEN") || upper.contains("PASSWORD")
                        || upper.contains("SECRET") || upper.contains("CREDENTIAL");
                out.put(k, secret ? "<redacted>" : e.getValue());
            }
        }
        return out;
    }
}
