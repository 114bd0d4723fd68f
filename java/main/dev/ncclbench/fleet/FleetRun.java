package dev.ncclbench.fleet;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendChoice;
import dev.ncclbench.launch.LaunchDetector;
import dev.ncclbench.launch.LaunchInfo;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.rendezvous.Rendezvous;
import dev.ncclbench.results.RunFolder;
import dev.ncclbench.spec.MeasuredFlags;
import dev.ncclbench.spec.RunSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
     */
    public record Options(FleetSettings settings, Survey survey, int groupSize, int maxRounds, double margin,
                          OptionalDouble floorGBps, String floorSource, long seed, String rendezvous, Integer rank,
                          Integer worldSize, String nodeName, Path outDir, FleetOutputs.Paths outputs) {
    }

    public static ExitCode run(Options o, PrintWriter out, PrintWriter err, Map<String, String> env) {
        LaunchInfo launch = LaunchDetector.detect(env, o.rank(), o.worldSize());
        if (launch.size() < 2) {
            throw NcclbenchException.usage("fleet needs two or more nodes: run one process per node under mpirun, srun"
                    + " or torchrun, or pass --rank, --world-size and --rendezvous to each");
        }
        RunSpec asked = o.settings().runSpec(o.outDir());
        BackendChoice choice = BackendChoice.choose(asked, launch.singleNode());
        Backend backend = choice.backend();
        RunSpec spec = BackendChoice.specFor(backend, asked, launch.singleNode());
        Survey survey = o.survey() != null ? o.survey()
                : backend.name().equals("socket") && launch.size() <= 16 ? Survey.ALL : Survey.PAIRS;
        if (survey == Survey.ALL && !backend.name().equals("socket")) {
            throw NcclbenchException.usage("--survey all runs every pair at once, which on the " + backend.name()
                    + " backend means several communicators on one GPU at the same time (NCCL may deadlock);"
                    + " use --survey pairs or round-robin");
        }
        SearchOptions search = new SearchOptions(survey, o.groupSize(), o.maxRounds(), o.margin(), o.floorGBps(), o.seed());
        String name = o.nodeName() != null ? o.nodeName() : hostName();
        try (Rendezvous rdv = Rendezvous.start(launch, 1, o.rendezvous(), env, spec.timeoutMillis(),
                MeasuredFlags.of(asked) + "\n--sizes " + o.settings().sizes() + "\n--sendrecv " + o.settings().sendrecv()
                        + "\n--survey " + survey)) {
            ControlPlane plane = rdv.planes().get(0);
            String rdvHost = rdv.address().substring(0, rdv.address().lastIndexOf(':'));
            InetAddress bind = rdvHost.startsWith("127.") || rdvHost.equals("localhost")
                    ? InetAddress.getLoopbackAddress() : new InetSocketAddress(0).getAddress();
            Coordinator coordinator = launch.rank() == 0 ? new Coordinator(bind, rdvHost, null, o.settings()) : null;
            String mine = name + "\n" + (coordinator == null ? "" : coordinator.port() + "\n" + coordinator.token());
            byte[][] all = plane.allGather("fleet/hello", mine.getBytes(StandardCharsets.UTF_8));
            List<String> hosts = names(all);
            String[] lead = new String(all[0], StandardCharsets.UTF_8).split("\n");
            InetSocketAddress coordAddr = new InetSocketAddress(rdvHost, Integer.parseInt(lead[1]));
            // one process per node: --rank is the node's index, not a GPU's, so only a launcher's local rank counts
            int localRank = LaunchDetector.detect(env, null, null).localRank();
            Worker worker = new Worker(coordAddr, lead[2], launch.rank(), localRank, backend, spec);
            if (coordinator == null) {
                worker.run();
                return ExitCode.OK;
            }
            try (Coordinator c = coordinator.withHosts(hosts)) {
                return lead(c, worker, hosts, search, choice, o, out, err);
            }
        } catch (IOException e) {
            throw new NcclbenchException(ExitCode.ENVIRONMENT, "rank 0 cannot listen for the search: " + e.getMessage());
        }
    }

    private static ExitCode lead(Coordinator c, Worker worker, List<String> hosts, SearchOptions search,
                                 BackendChoice choice, Options o, PrintWriter out, PrintWriter err) throws IOException {
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
        FleetText text = new FleetText(out, hosts);
        text.header(choice.backend().name(), search, o.settings(), missing);
        SearchResult result = Search.run(hosts, search, plan -> {
            text.begin(plan);
            return c.run(plan);
        }, missing, text::round);
        c.finish();
        text.verdicts(result);
        Path folder = o.outDir().resolve(RunFolder.name("fleet", Instant.now(), ProcessHandle.current().pid()));
        FleetOutputs.Paths paths = o.outputs().under(folder);
        FleetOutputs.write(paths, new FleetDocument(hosts, search, o.settings(), choice.backend().name(), o.floorSource(),
                result));
        text.files(paths);
        if (workerFailure.get() != null) {
            err.println("ncclbench: rank 0's own node: " + workerFailure.get().getMessage());
        }
        return result.verdicts().anyBad() ? ExitCode.DEGRADED : ExitCode.OK;
    }

    /** The names the verdicts use; a name two processes share gets its rank, with a line saying so. */
    static List<String> names(byte[][] all) {
        List<String> raw = new ArrayList<>();
        for (byte[] b : all) {
            raw.add(new String(b, StandardCharsets.UTF_8).split("\n")[0]);
        }
        List<String> out = new ArrayList<>();
        for (int r = 0; r < raw.size(); r++) {
            String n = raw.get(r);
            out.add(raw.indexOf(n) != raw.lastIndexOf(n) ? n + "#" + r : n);
        }
        return out;
    }

    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            String h = System.getenv("HOSTNAME");
            return h == null ? "localhost" : h;
        }
    }
}
