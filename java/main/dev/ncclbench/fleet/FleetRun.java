package dev.ncclbench.fleet;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendChoice;
import dev.ncclbench.diagnosis.FabricCatalog;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.launch.LaunchDetector;
import dev.ncclbench.launch.HostName;
import dev.ncclbench.launch.LaunchInfo;
import dev.ncclbench.netif.InterfaceScan;
import dev.ncclbench.rendezvous.Rendezvous;
import dev.ncclbench.results.RunFolder;
import dev.ncclbench.spec.MeasuredFlags;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.env.Host;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One process per node: every process joins the job's rendezvous once (names and rank 0's address), then rank 0
 * leads the search over its own connection to each node, and every node (rank 0's too) runs the groups it is
 * given. Only the start needs every node; after that a node that dies or hangs is reported and left out.
 */
public final class FleetRun {
    private FleetRun() {
    }

    /**
     * What one fleet process was asked, in named groups.
     *
     * @param search      the search as asked; its survey null: the backend's default ({@link #defaultSurvey})
     * @param floorSource what the floor of {@code search} is, in words ("IB-NDR's healthy minimum ..."), or null
     */
    public record Options(FleetSettings settings, SearchOptions search, String floorSource, Node node, Files files,
                          Baselines baselines, Rails rails) {
    }

    /**
     * Where this process is in the job, when no launcher says so, and what its node is called.
     *
     * @param rendezvous --rendezvous HOST:PORT, or null (MASTER_ADDR/MASTER_PORT)
     * @param rank       --rank, or null (the launcher's)
     * @param worldSize  --world-size, or null (the launcher's)
     * @param name       --node-name, or null (SLURMD_NODENAME, else the kernel's host name)
     * @param list       --node-list, every rank's node name in Slurm's syntax, or null (SLURM_JOB_NODELIST)
     */
    public record Node(String rendezvous, Integer rank, Integer worldSize, String name, String list) {
    }

    /**
     * Rank 0's files.
     *
     * @param outDir               --out: the run's folder is made under it
     * @param outputs              where rank 0 writes the JSON, HTML, drain list, JUnit and Prometheus files
     * @param runId                --run-id: the drain list's first line names it (null: the run's folder name)
     * @param allowUnauthenticated --allow-unauthenticated: write the drain list though the rendezvous had no secret
     */
    public record Files(Path outDir, FleetOutputs.Paths outputs, String runId, boolean allowUnauthenticated) {
    }

    /**
     * @param judgeAgainst --baseline: a fleet baseline's name (in {@code folder}) or file to judge pairs against, or null
     * @param record       --record-baseline: record this run's good pairs as a fleet baseline of this name, or null
     * @param folder       --baseline-dir
     */
    public record Baselines(String judgeAgainst, String record, Path folder) {
    }

    /**
     * @param interfaces --rails: this node's rail interfaces in rail order, or null (no rail round)
     * @param rates      the catalog's site lines, which give a rail its line rate ({@link FleetFabric#sites})
     */
    public record Rails(String interfaces, List<FabricCatalog.Site> rates) {
        public static final Rails NONE = new Rails(null, List.of());

        public Rails {
            rates = List.copyOf(rates);
        }
    }

    /** What a rank whose node's name nobody knows is called in the verdicts (never drained: scontrol knows no such node). */
    static String unnamed(int rank) {
        return "rank " + rank;
    }

    public static ExitCode run(Options o, PrintWriter out, PrintWriter err, Host host) {
        return run(o, out, err, host, json -> { });
    }

    /**
     * The search; rank 0 hands {@code jsonWritten} the JSON file once it is written (fleet --json -: printed on
     * standard output, while {@code out} is standard error).
     */
    public static ExitCode run(Options o, PrintWriter out, PrintWriter err, Host host, Consumer<Path> jsonWritten) {
        o.settings().requireWatchdogWithinRound();
        if (o.files().runId() != null && !o.files().runId().matches("[A-Za-z0-9._:-]{1,128}")) {
            throw NcclbenchException.usage("--run-id wants letters, digits, '.', '_', ':' or '-' (at most 128), got "
                    + NodeList.quoted(o.files().runId()));
        }
        LaunchInfo launch = LaunchDetector.detect(host, o.node().rank(), o.node().worldSize());
        if (launch.size() < 2) {
            throw NcclbenchException.usage("fleet needs two or more nodes: run one process per node under mpirun, srun"
                    + " or torchrun, or pass --rank, --world-size and --rendezvous to each");
        }
        RunSpec asked = o.settings().runSpec(o.files().outDir());
        BackendChoice choice = BackendChoice.choose(asked, launch.singleNode(), host);
        Backend backend = choice.backend();
        RunSpec spec = BackendChoice.specFor(backend, asked, launch.singleNode());
        boolean concurrent = backend.capabilities().contains(Capability.CONCURRENT_GROUPS);
        Survey survey = o.search().survey() != null ? o.search().survey() : defaultSurvey(concurrent, launch.size());
        if ((survey == Survey.ALL || survey == Survey.BATCHES) && !concurrent) {
            throw NcclbenchException.usage("--survey " + survey.label + " runs many pairs at once, which on the " + backend.name()
                    + " backend means several communicators on one GPU at the same time (NCCL may deadlock);"
                    + " use --survey pairs or round-robin");
        }
        long surveyGroups = survey == Survey.ALL ? (long) launch.size() * (launch.size() - 1) / 2
                : survey == Survey.BATCHES ? (long) Planner.batchWidth(launch.size()) * (launch.size() / 2) : launch.size() / 2;
        if (surveyGroups > Coordinator.MAX_GROUPS_PER_ROUND) {
            throw NcclbenchException.usage("--survey " + survey.label + " on " + launch.size() + " nodes runs " + surveyGroups
                    + " groups in a round; rank 0 serves at most " + Coordinator.MAX_GROUPS_PER_ROUND
                    + " at once (a job each on its store): use --survey pairs or round-robin");
        }
        List<NodeRail> rails = null; // no rail round
        if (o.rails().interfaces() != null) {
            if (!backend.capabilities().contains(Capability.SOCKET_INTERFACE)) {
                throw NcclbenchException.usage("--rails holds each rail's groups to one interface, which the " + backend.name()
                        + " backend cannot do in one process (NCCL reads NCCL_IB_HCA and NCCL_SOCKET_IFNAME once, at its"
                        + " first communicator): run fleet --rails with --backend socket, on the rails' IPoIB or RoCE"
                        + " interfaces (docs/fleet.md, Rails)");
            }
            rails = RailSource.interfaces(o.rails().interfaces(), InterfaceScan.local()).rails();
        }
        SearchOptions search = new SearchOptions(survey, o.search().groupSize(), o.search().maxRounds(), o.search().margin(),
                o.search().floorGBps(), o.search().seed());
        String name = HostName.node(o.node().name(), host);
        Optional<List<String>> launcherNames = NodeList.of(o.node().list(), host, launch.size());
        // fleet does not gather through the rendezvous store: a gather waits for every rank, and a node that never
        // starts would hold up the rest. Rank 0 listens where the store would, and takes whoever comes.
        Rendezvous.Place place = Rendezvous.place(launch, 1, o.node().rendezvous(), host);
        if (place.port() == 0) {
            throw NcclbenchException.usage("fleet needs rank 0's address: pass --rendezvous HOST:PORT, or set MASTER_ADDR and MASTER_PORT");
        }
        byte[] token = place.token();
        String rdvHost = place.host();
        InetSocketAddress coordAddr = new InetSocketAddress(rdvHost, place.port());
        // one process per node: --rank is the node's index, not a GPU's, so only a launcher's local rank counts
        int localRank = LaunchDetector.detect(host, null, null).localRank();
        // one job, one set of flags: every node's hello carries them and rank 0 stops the search on a difference
        String flags = MeasuredFlags.of(asked) + "\n--sizes " + o.settings().sizes() + "\n--sendrecv " + o.settings().sendrecv()
                + "\n--survey " + survey.label + (o.rails().interfaces() != null ? "\n--rails (a rail round)" : "");
        Worker worker = new Worker(coordAddr, token, launch.size(), name, launch.rank(), localRank, backend, spec,
                o.settings().roundMillis(), flags, host, place.job(), rails);
        if (launch.rank() != 0) {
            // rank 0 prints the verdicts; a node says in one line that it is done, what rank 0 decided and where
            out.println("ncclbench fleet: rank " + launch.rank() + " (" + name + ") done: " + worker.run());
            out.flush();
            return ExitCode.OK;
        }
        FleetBaseline baseline = null;
        if (o.baselines().judgeAgainst() != null) { // read before anyone waits: a wrong name is one line and exit 2
            baseline = FleetBaseline.read(o.baselines().folder(), o.baselines().judgeAgainst());
            baseline.admit(FleetBaseline.fingerprintOf(backend.name(), o.settings()));
        }
        requireDescriptors(surveyGroups, launch.size(), survey);
        InetAddress bind = rdvHost.startsWith("127.") || rdvHost.equals("localhost")
                ? InetAddress.getLoopbackAddress() : new InetSocketAddress(0).getAddress();
        try (Coordinator c = new Coordinator(bind, place.port(), rdvHost, token, launch.size(), o.settings(), flags)) {
            return lead(c, worker, launcherNames, search, choice, o, baseline, new DrainPolicy(place.authenticated(),
                    o.files().allowUnauthenticated(), launcherNames.map(Set::copyOf)), name, out, err, jsonWritten);
        } catch (IOException e) {
            throw new NcclbenchException(ExitCode.ENVIRONMENT, "rank 0 cannot listen for the search on port " + place.port()
                    + ": " + e.getMessage() + "; another job may hold it: choose another --rendezvous or MASTER_PORT");
        }
    }

    private static ExitCode lead(Coordinator c, Worker worker, Optional<List<String>> launcherNames, SearchOptions search,
                                 BackendChoice choice, Options o, FleetBaseline baseline, DrainPolicy policy, String name,
                                 PrintWriter out, PrintWriter err, Consumer<Path> jsonWritten) {
        AtomicReference<RuntimeException> workerFailure = new AtomicReference<>();
        Thread local = new Thread(() -> {
            try {
                worker.run();
            } catch (RuntimeException e) {
                workerFailure.set(e);
            }
        }, "ncclbench-fleet-rank0");
        local.setDaemon(true);
        local.start();
        Map<Integer, String> missing = c.awaitNodes();
        List<String> hosts = names(c.joinedNames(), launcherNames);
        c.withHosts(hosts);
        FleetText text = new FleetText(out, hosts);
        text.header(choice.backend().name(), search, o.settings(), o.floorSource(), missing, baseline, policy);
        SearchResult result = Search.run(hosts, search, plan -> {
            text.begin(plan);
            return c.run(plan);
        }, missing, text::round, baseline);
        RailResult rails = null;
        if (o.rails().interfaces() != null) { // every node's flags say --rails: rank 0's do
            Set<Integer> gone = new TreeSet<>();
            result.verdicts().nodes().stream().filter(v -> v.status() == NodeVerdict.Status.UNREACHABLE)
                    .forEach(v -> gone.add(v.rank()));
            rails = RailSearch.run(hosts, c.joinedRails(), gone, result.rounds() + 1, c,
                    new RailJudge(RailRate.lines(o.rails().rates(), o.search().floorGBps(), o.floorSource())), text::railRound, text::begin);
        }
        FleetDocument doc = new FleetDocument(hosts, search, o.settings(), choice.backend().name(), o.floorSource(), result,
                baseline, rails);
        DrainPolicy.Drain drain = policy.decide(doc);
        text.verdicts(result, rails, drain);
        String folderName = RunFolder.name("fleet", Instant.now(), ProcessHandle.current().pid());
        FleetOutputs.Paths paths = o.files().outputs().under(o.files().outDir().resolve(folderName));
        boolean written = false;
        try {
            FleetOutputs.write(paths, doc, policy, drain, o.files().runId() != null ? o.files().runId() : folderName);
            written = true;
        } finally {
            // the nodes hear it either way: what was decided, and where it is (or that rank 0 could not write it)
            c.finish(FleetText.decided(name, doc, drain, written ? paths.json().toAbsolutePath() : null));
        }
        text.files(paths, policy);
        jsonWritten.accept(paths.json());
        if (o.baselines().record() != null) {
            FleetBaseline b = FleetBaseline.of(o.baselines().record(), result, hosts,
                    FleetBaseline.fingerprintOf(choice.backend().name(), o.settings()));
            Path file = b.write(o.baselines().folder());
            out.printf("baseline %s recorded: %d pair%s between nodes judged good: %s%n", b.name(), b.pairs().size(),
                    b.pairs().size() == 1 ? "" : "s", file);
            out.flush();
        }
        if (workerFailure.get() != null) {
            err.println("ncclbench: rank 0's own node: " + workerFailure.get().getMessage());
        }
        return doc.anyBad() ? ExitCode.DEGRADED : ExitCode.OK;
    }

    /**
     * Rank 0 holds two connections a group on its store, and one a node: a survey round beyond its open-file limit would
     * leave groups unconnected until the round's limit, so it is refused at the start, on rank 0 (the others then cannot reach it).
     */
    private static void requireDescriptors(long surveyGroups, int nodes, Survey survey) {
        // and 1024 for the JVM's own files and rank 0's own node's groups (a store connection and data sockets each)
        long needed = 2 * surveyGroups + nodes + 1024;
        long limit = java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : Long.MAX_VALUE;
        if (needed > limit) {
            throw new NcclbenchException(ExitCode.ENVIRONMENT, "--survey " + survey.label + " on " + nodes + " nodes holds "
                    + 2 * surveyGroups + " connections to rank 0's store in a round, and rank 0 may open " + limit
                    + " files: raise ulimit -n on rank 0 to " + needed + " or more, or use --survey pairs");
        }
    }

    /**
     * Every pair at once for small jobs on a backend that runs several groups on a node at once (sockets); above 16
     * nodes the batched survey while its rounds fit what rank 0 serves in one round
     * ({@link Coordinator#MAX_GROUPS_PER_ROUND} groups, each a job of its one store: up to 1448 nodes), else random
     * pairs; random pairs on a backend that cannot (nccl: one communicator per GPU at a time).
     * The same on every node, whatever its memory or limits: each node's flags carry the survey, and must agree.
     */
    static Survey defaultSurvey(boolean concurrentGroups, int nodes) {
        if (!concurrentGroups) {
            return Survey.PAIRS;
        }
        if (nodes <= 16) {
            return Survey.ALL;
        }
        return (long) Planner.batchWidth(nodes) * (nodes / 2) <= Coordinator.MAX_GROUPS_PER_ROUND ? Survey.BATCHES : Survey.PAIRS;
    }

    /**
     * The names the verdicts use: what each node said, else the launcher's name for that rank, else "rank N"; a
     * name two processes share gets "#rank" (the drain list drops it again: the scheduler knows the node).
     */
    static List<String> names(List<String> joined, Optional<List<String>> launcherNames) {
        List<String> raw = new ArrayList<>();
        for (int r = 0; r < joined.size(); r++) {
            String n = joined.get(r);
            raw.add(n != null ? n : launcherNames.isPresent() ? launcherNames.get().get(r) : unnamed(r));
        }
        List<String> out = new ArrayList<>();
        for (int r = 0; r < raw.size(); r++) {
            String n = raw.get(r);
            out.add(raw.indexOf(n) != raw.lastIndexOf(n) ? n + "#" + r : n);
        }
        return out;
    }
}
