package dev.ncclbench.fleet;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendChoice;
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
import java.util.concurrent.atomic.AtomicReference;

/**
 * One process per node: every process joins the job's rendezvous once (names and rank 0's address), then rank 0
 * leads the search over its own connection to each node, and every node (rank 0's too) runs the groups it is
 * given. Only the start needs every node; after that a node that dies or hangs is reported and left out.
 */
public final class FleetRun {
    private FleetRun() {
    }

    /**
     * @param survey     null: every pair at once on the socket backend up to 16 nodes, else random pairs
     * @param floorGBps  the fabric catalog's healthy minimum for a pair, when --fabric names one
     * @param outputs    where rank 0 writes the JSON, HTML, drain list, JUnit and Prometheus files
     * @param baseline   --baseline: a fleet baseline's name (in baselineDir) or file to judge pairs against, or null
     * @param recordBaseline --record-baseline: record this run's good pairs as a fleet baseline of this name, or null
     * @param allowUnauthenticated --allow-unauthenticated: write the drain list though the rendezvous had no secret
     * @param runId      --run-id: the drain list's first line names it (null: the run's folder name)
     */
    public record Options(FleetSettings settings, Survey survey, int groupSize, int maxRounds, double margin,
                          OptionalDouble floorGBps, String floorSource, long seed, String rendezvous, Integer rank,
                          Integer worldSize, String nodeName, String nodeList, Path outDir, FleetOutputs.Paths outputs,
                          String baseline, String recordBaseline, Path baselineDir, boolean allowUnauthenticated,
                          String runId, String rails, List<RailRate> railRates) {
        /** Without --rails. */
        public Options(FleetSettings settings, Survey survey, int groupSize, int maxRounds, double margin,
                       OptionalDouble floorGBps, String floorSource, long seed, String rendezvous, Integer rank,
                       Integer worldSize, String nodeName, String nodeList, Path outDir, FleetOutputs.Paths outputs,
                       String baseline, String recordBaseline, Path baselineDir, boolean allowUnauthenticated, String runId) {
            this(settings, survey, groupSize, maxRounds, margin, floorGBps, floorSource, seed, rendezvous, rank, worldSize,
                    nodeName, nodeList, outDir, outputs, baseline, recordBaseline, baselineDir, allowUnauthenticated, runId,
                    null, List.of());
        }
    }

    /** What a rank whose node's name nobody knows is called in the verdicts (never drained: scontrol knows no such node). */
    static String unnamed(int rank) {
        return "rank " + rank;
    }

    public static ExitCode run(Options o, PrintWriter out, PrintWriter err, Host host) {
        if (o.runId() != null && !o.runId().matches("[A-Za-z0-9._:-]{1,128}")) {
            throw NcclbenchException.usage("--run-id wants letters, digits, '.', '_', ':' or '-' (at most 128), got "
                    + NodeList.quoted(o.runId()));
        }
        LaunchInfo launch = LaunchDetector.detect(host, o.rank(), o.worldSize());
        if (launch.size() < 2) {
            throw NcclbenchException.usage("fleet needs two or more nodes: run one process per node under mpirun, srun"
                    + " or torchrun, or pass --rank, --world-size and --rendezvous to each");
        }
        RunSpec asked = o.settings().runSpec(o.outDir());
        BackendChoice choice = BackendChoice.choose(asked, launch.singleNode(), host);
        Backend backend = choice.backend();
        RunSpec spec = BackendChoice.specFor(backend, asked, launch.singleNode());
        boolean concurrent = backend.capabilities().contains(Capability.CONCURRENT_GROUPS);
        Survey survey = o.survey() != null ? o.survey() : defaultSurvey(concurrent, launch.size());
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
        if (o.rails() != null) {
            if (!backend.capabilities().contains(Capability.SOCKET_INTERFACE)) {
                throw NcclbenchException.usage("--rails holds each rail's groups to one interface, which the " + backend.name()
                        + " backend cannot do in one process (NCCL reads NCCL_IB_HCA and NCCL_SOCKET_IFNAME once, at its"
                        + " first communicator): run fleet --rails with --backend socket, on the rails' IPoIB or RoCE"
                        + " interfaces (docs/fleet.md, Rails)");
            }
            rails = RailSource.interfaces(o.rails(), InterfaceScan.local()).rails();
        }
        SearchOptions search = new SearchOptions(survey, o.groupSize(), o.maxRounds(), o.margin(), o.floorGBps(), o.seed());
        String name = HostName.node(o.nodeName(), host);
        Optional<List<String>> launcherNames = NodeList.of(o.nodeList(), host, launch.size());
        // fleet does not gather through the rendezvous store: a gather waits for every rank, and a node that never
        // starts would hold up the rest. Rank 0 listens where the store would, and takes whoever comes.
        Rendezvous.Place place = Rendezvous.place(launch, 1, o.rendezvous(), host);
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
                + "\n--survey " + survey.label + (o.rails() != null ? "\n--rails (a rail round)" : "");
        Worker worker = new Worker(coordAddr, token, launch.size(), name, launch.rank(), localRank, backend, spec, flags, host,
                place.job(), rails);
        if (launch.rank() != 0) {
            // rank 0 prints the verdicts; a node says in one line that it is done, what rank 0 decided and where
            out.println("ncclbench fleet: rank " + launch.rank() + " (" + name + ") done: " + worker.run());
            out.flush();
            return ExitCode.OK;
        }
        FleetBaseline baseline = null;
        if (o.baseline() != null) { // read before anyone waits: a wrong name is one line and exit 2
            baseline = FleetBaseline.read(o.baselineDir(), o.baseline());
            baseline.admit(FleetBaseline.fingerprintOf(backend.name(), o.settings()));
        }
        requireDescriptors(surveyGroups, launch.size(), survey);
        InetAddress bind = rdvHost.startsWith("127.") || rdvHost.equals("localhost")
                ? InetAddress.getLoopbackAddress() : new InetSocketAddress(0).getAddress();
        try (Coordinator c = new Coordinator(bind, place.port(), rdvHost, token, launch.size(), o.settings(), flags)) {
            return lead(c, worker, launcherNames, search, choice, o, baseline, new DrainPolicy(place.authenticated(),
                    o.allowUnauthenticated(), launcherNames.map(java.util.Set::copyOf)), name, out, err);
        } catch (IOException e) {
            throw new NcclbenchException(ExitCode.ENVIRONMENT, "rank 0 cannot listen for the search on port " + place.port()
                    + ": " + e.getMessage() + "; another job may hold it: choose another --rendezvous or MASTER_PORT");
        }
    }

    private static ExitCode lead(Coordinator c, Worker worker, Optional<List<String>> launcherNames, SearchOptions search,
                                 BackendChoice choice, Options o, FleetBaseline baseline, DrainPolicy policy, String name,
                                 PrintWriter out, PrintWriter err) {
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
        if (o.rails() != null) { // every node's flags say --rails: rank 0's do

            java.util.Set<Integer> gone = new java.util.TreeSet<>();
            result.verdicts().nodes().stream().filter(v -> v.status() == NodeVerdict.Status.UNREACHABLE)
                    .forEach(v -> gone.add(v.rank()));
            rails = RailSearch.run(hosts, c.joinedRails(), gone, result.rounds() + 1, c,
                    new RailJudge(RailRate.lines(o.railRates(), o.floorGBps(), o.floorSource())), text::railRound, text::begin);
        }
        FleetDocument doc = new FleetDocument(hosts, search, o.settings(), choice.backend().name(), o.floorSource(), result,
                baseline, rails);
        DrainPolicy.Drain drain = policy.decide(doc);
        text.verdicts(result, rails, drain);
        String folderName = RunFolder.name("fleet", Instant.now(), ProcessHandle.current().pid());
        FleetOutputs.Paths paths = o.outputs().under(o.outDir().resolve(folderName));
        boolean written = false;
        try {
            FleetOutputs.write(paths, doc, policy, drain, o.runId() != null ? o.runId() : folderName);
            written = true;
        } finally {
            // the nodes hear it either way: what was decided, and where it is (or that rank 0 could not write it)
            c.finish(FleetText.decided(name, result, rails, drain, written ? paths.json().toAbsolutePath() : null));
        }
        text.files(paths, policy);
        if (o.recordBaseline() != null) {
            FleetBaseline b = FleetBaseline.of(o.recordBaseline(), result, hosts,
                    FleetBaseline.fingerprintOf(choice.backend().name(), o.settings()));
            Path file = b.write(o.baselineDir());
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
     * leave groups unconnected until -T, so it is refused at the start, on rank 0 (the others then cannot reach it).
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
