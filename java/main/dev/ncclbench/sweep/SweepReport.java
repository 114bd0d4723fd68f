package dev.ncclbench.sweep;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.Version;
import dev.ncclbench.backend.BackendChoice;
import dev.ncclbench.choices.NcclChoices;
import dev.ncclbench.diagnosis.CopyLimit;
import dev.ncclbench.diagnosis.FabricEntry;
import dev.ncclbench.diagnosis.RouteInputs;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.diagnosis.Health;
import dev.ncclbench.diagnosis.RouteClassifier;
import dev.ncclbench.diagnosis.RunLogDiagnosis;
import dev.ncclbench.diagnosis.facts.RouteKind;
import dev.ncclbench.launch.LaunchInfo;
import dev.ncclbench.output.Json;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.rendezvous.Gathers;
import dev.ncclbench.results.IterationClock;
import dev.ncclbench.results.RouteVerdict;
import dev.ncclbench.results.RankInfo;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.RecordedEnvironment;
import dev.ncclbench.results.ResultRow;
import dev.ncclbench.results.ResultSink;
import dev.ncclbench.results.ResultSinks;
import dev.ncclbench.results.RunFolder;
import dev.ncclbench.spec.RunSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import dev.ncclbench.env.HostVersions;
import dev.ncclbench.env.Host;

/**
 * What a process reports of its sweep. Rank 0's process writes the table and the JSON as rows come, then the
 * path verdict and the status; the other processes report nothing and only pass the failure on.
 */
final class SweepReport {
    private final ResultSink sink;
    private final Path jsonFile;
    private final Path runFolder;
    private final RouteVerdict knownPath;
    private final List<ResultRow> rows = new ArrayList<>();
    private final PrintWriter out;
    private final PrintWriter err;
    private int badRanks;
    /** -o mulsum and the like: every pair asked for is one the backend skips (named in the header), so no row is due. */
    private boolean allSkipped;

    private SweepReport(ResultSink sink, Path jsonFile, Path runFolder, RouteVerdict knownPath, PrintWriter out,
                   PrintWriter err) {
        this.sink = sink;
        this.jsonFile = jsonFile;
        this.runFolder = runFolder;
        this.knownPath = knownPath;
        this.out = out;
        this.err = err;
    }

    /** A process other than rank 0's: it still takes part in the rank-list gather. */
    static SweepReport follower(LaunchInfo launch, List<RankComm> comms, List<ControlPlane> planes) {
        gatherRankInfo(launch, comms, planes);
        return new SweepReport(null, null, null, null, null, null);
    }

    static SweepReport begin(RunSpec spec, String backendAsked, List<String> commandLine, LaunchInfo launch,
                        BackendChoice choice, List<RankComm> comms,
                        List<ControlPlane> planes, List<String> notes, Host host, PrintWriter out,
                        PrintWriter err) {
        List<RankInfo> ranks = gatherRankInfo(launch, comms, planes);
        Path jsonFile = RunFolder.jsonFile(spec.outputs().jsonFile(), spec.outputs().outDir());
        IterationClock clock = choice.backend().capabilities().contains(Capability.EVENT_TIMING)
                ? IterationClock.CUDA_EVENT : IterationClock.HOST;
        ResultSink sink = spec.ncclTests().flags().outputFile() == null
                ? ResultSinks.tee(ResultSinks.text(out, clock), ResultSinks.json(jsonFile))
                // nccl-tests' -J beside our JSON, last (its failure matters least); the table starts at the first
                // collective, so its "Writing JSON output" line still comes first, as nccl-tests prints it
                : ResultSinks.tee(ResultSinks.text(out, clock), ResultSinks.json(jsonFile),
                        ResultSinks.ncclTestsJson(spec.ncclTests().flags().outputFile(), out));
        List<String> logs = new ArrayList<>();
        comms.forEach(c -> c.logFiles().forEach(p -> logs.add(p.toString())));
        Map<String, String> versions = versions(comms.get(0), host);
        sink.beginRun(ResultDocument.begin()
                .toolVersion(Version.string()).startedAt(DateTimeFormatter.ISO_INSTANT.format(Instant.now()))
                .backend(choice.backend().name()).backendAsked(backendAsked).backendReason(choice.reason())
                .commandLine(commandLine).spec(spec).versions(versions).nranks(comms.get(0).nranks()).ranks(ranks)
                .environment(RecordedEnvironment.of(host.variables())).ncclLogFiles(logs).notes(notes)
                .begun());
        // a socket-interface backend knows its path; NCCL's is read from its own log once the sweep is over
        RouteVerdict known = choice.backend().capabilities().contains(Capability.SOCKET_INTERFACE)
                ? RouteClassifier.socketBackend(ranks.isEmpty() ? "?" : distinctDevices(ranks)) : null;
        SweepReport report = new SweepReport(sink, jsonFile, spec.outputs().outDir(), known, out, err);
        report.copyLimit = CopyLimit.of(versions.get(HostVersions.GPU_MEMORY_CLOCK_MHZ),
                versions.get(HostVersions.GPU_MEMORY_BUS_WIDTH_BITS), comms.get(0).info().device());
        report.allSkipped = !spec.ncclTests().skipped().isEmpty() && spec.collectives().stream()
                .allMatch(c -> Passes.of(spec, spec.collective(c)).isEmpty());
        return report;
    }

    /** What rank 0's GPU can copy: a one-rank run's summary judges algbw against it. */
    private java.util.Optional<CopyLimit> copyLimit = java.util.Optional.empty();

    /** The result JSON, null on processes other than rank 0's. */
    java.nio.file.Path jsonFile() {
        return jsonFile;
    }

    boolean reporter() {
        return sink != null;
    }

    /** Rank 0's listener, null elsewhere. */
    SweepListener listener() {
        if (sink == null) {
            return null;
        }
        return new SweepListener() {
            @Override
            public void beginCollective(String collective) {
                sink.beginCollective(collective);
            }

            @Override
            public void row(ResultRow row, int wrongOop, int wrongIp) {
                ResultRow r = knownPath != null ? row.withVerdict(knownPath) : row;
                rows.add(r);
                badRanks += wrongOop + wrongIp;
                sink.row(r);
            }

            @Override
            public void endCollective(String collective) {
                sink.endCollective(collective);
            }
        };
    }

    /** Finishes the result and turns the run's outcome into the exit code (or the exception that carries it). */
    ExitCode end(RuntimeException failure, List<RankComm> comms, RouteInputs path, List<NodeChoices.Message> nodes) {
        ExitCode verdictCode = ExitCode.OK;
        String verdictMessage = null;
        if (sink != null) {
            if (knownPath == null && !rows.isEmpty()) {
                List<Path> own = new ArrayList<>();
                comms.forEach(c -> own.addAll(c.logFiles()));
                // the other processes of this node wrote theirs into the same run folder
                RunLogDiagnosis d = RunLogDiagnosis.of(RunLogDiagnosis.logsOf(own, runFolder),
                        rows, comms.get(0).nranks(), path.socketFloor(), path.fabric(), copyLimit);
                if (d.readProblem() != null) {
                    err.println("ncclbench: " + d.readProblem());
                }
                sink.verdicts(d.rows());
                // NCCL's choices go into the result only from a log with NCCL lines: without one they stay unknown;
                // every node's, when the other nodes' logs are on their own disks
                NcclChoices choices = NodeChoices.combine(d.evidence(), nodes);
                if (choices != null) {
                    sink.choices(choices);
                }
                d.summary().forEach(out::println);
                out.flush();
                if (d.diagnosis().isPresent() && d.diagnosis().get().health() == Health.DEGRADED) {
                    verdictCode = ExitCode.DEGRADED;
                    verdictMessage = "degraded path: " + d.diagnosis().get().reason();
                }
            }
            if (knownPath != null && path.fabric().isPresent() && !rows.isEmpty()) {
                String degraded = socketUnderFabric(path.fabric().get());
                if (degraded != null) {
                    out.println("# " + degraded);
                    out.flush();
                    verdictCode = ExitCode.DEGRADED;
                    verdictMessage = degraded;
                }
            }
            if (failure == null && rows.isEmpty() && !allSkipped) {
                // a run that measured nothing is never "ok"
                failure = new NcclbenchException(ExitCode.RUN_FAILED, "no row was measured");
            }
            String status = failure == null ? "ok" : status(failure);
            sink.finish(status, failure == null ? null : failure.getMessage());
            err.println("ncclbench: results in " + jsonFile);
        }
        if (failure != null) {
            throw SweepRunner.asExit(failure);
        }
        if (badRanks > 0) {
            throw new NcclbenchException(ExitCode.RUN_FAILED, "wrong results: " + badRanks
                    + " (rank x row) pairs saw wrong elements; see #wrong in the table");
        }
        if (verdictCode != ExitCode.OK) {
            throw new NcclbenchException(verdictCode, verdictMessage);
        }
        return ExitCode.OK;
    }

    /**
     * --fabric on a backend that knows its path (sockets): the run is judged against the fabric, not ignored. Under a
     * fabric whose healthy path is not sockets the run took the degraded path; under an Ethernet one its largest
     * sizes (64 MiB up) must reach the healthy band. Null when healthy or when no size was large enough to judge.
     */
    private String socketUnderFabric(FabricEntry f) {
        if (!RouteKind.SOCKET.id.equals(knownPath.path())) {
            return null;
        }
        double peak = rows.stream().filter(r -> r.sizeBytes() >= 64L << 20)
                .mapToDouble(r -> Math.max(r.outOfPlace().busbw(), r.inPlace().busbw())).filter(Double::isFinite)
                .max().orElse(Double.NaN);
        if (Double.isNaN(peak) && f.socketPath()) {
            out.println("# --fabric " + f.id() + ": no size from 64 MiB up, so busbw was not judged against its band"
                    + " (sweep to -e 64M or more)");
        }
        if (!f.socketPath()) {
            return "degraded path: the run went over TCP sockets (socket backend), not the " + f.path() + " path a"
                    + " healthy " + f.id() + " job takes";
        }
        if (peak < f.healthyMinGBps()) {
            return String.format(java.util.Locale.ROOT, "degraded path: busbw peaks at %.2f GB/s from 64 MiB up, under"
                    + " the %.2f GB/s a healthy %s path reaches", peak, f.healthyMinGBps(), f.id());
        }
        return null;
    }

    private static String status(RuntimeException failure) {
        ExitCode code = failure instanceof NcclbenchException ne ? ne.exitCode() : ExitCode.INTERNAL;
        switch (code) {
            case TIMEOUT: return "timeout";
            case INTERRUPTED:
            case TERMINATED: return "interrupted";
            default: return "failed";
        }
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

    /** Every local rank shares its RankInfo; rank 0's process gets the whole job's list, the others nothing. */
    private static List<RankInfo> gatherRankInfo(LaunchInfo launch, List<RankComm> comms, List<ControlPlane> planes) {
        ObjectMapper json = Json.mapper();
        byte[][] all = Gathers.toRankZero(planes, "rankinfo", local -> {
            RankInfo ri = comms.get(local).info();
            ri = ri.withLocalRank(launch.localRank() * comms.size() + local);
            try {
                return json.writeValueAsBytes(ri);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        List<RankInfo> ranks = new ArrayList<>();
        if (all == null) {
            return ranks; // a follower: only rank 0 writes the list
        }
        for (byte[] b : all) {
            try {
                ranks.add(json.readValue(b, RankInfo.class));
            } catch (IOException e) {
                throw new NcclbenchException(ExitCode.RUN_FAILED, "a rank sent an unreadable description: " + e.getMessage());
            }
        }
        return ranks;
    }

    /** Rank 0's host and what its backend loaded, each version a field (a multi-node job records rank 0's node). */
    private static Map<String, String> versions(RankComm comm, Host host) {
        Map<String, String> v = new TreeMap<>(HostVersions.host(host.libraries()));
        v.putAll(comm.versions());
        v.put("ncclbench", Version.string());
        v.put("java", System.getProperty("java.version"));
        v.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        return v;
    }
}
