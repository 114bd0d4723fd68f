package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backends;
import dev.ncclbench.fleet.FleetOutputs;
import dev.ncclbench.fleet.FleetRun;
import dev.ncclbench.fleet.FleetSettings;
import dev.ncclbench.fleet.SearchOptions;
import dev.ncclbench.fleet.Survey;
import dev.ncclbench.spec.Defaults;
import dev.ncclbench.spec.Sizes;
import dev.ncclbench.sweep.PathInputs;
import dev.ncclbench.sweep.PathOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;

/** `ncclbench fleet`: one process per node; finds the slow node and the bad link of an allocation. */
@Command(name = "fleet", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Find the slow node and the bad link of an allocation: rounds of short all_reduces in pairs"
                + " (and groups), each on its own connections, planned and judged by rank 0. Run one process per node.",
        footer = "%nExit 6 when a node is slow or unreachable or a link is bad; the drain list has one host per line.")
public final class FleetCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--sizes", paramLabel = "SIZE[,SIZE]", description = "all_reduce sizes per group, binary K/M/G (default: 16M,64M)")
    String sizes;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", description = "Timed iterations per size, fewer when a size has used its share of the round (default: 5)")
    Integer iters;

    @Option(names = {"-w", "--warmup_iters"}, paramLabel = "N", description = "Warm-up iterations per size (default: 1)")
    Integer warmup;

    @Option(names = "--sendrecv", description = "Also a sendrecv both ways at the same sizes; a group's figure is the lower of the two")
    boolean sendrecv;

    @Option(names = {"-T", "--timeout"}, paramLabel = "SECONDS", description = "Limit of one round: a node that has not answered by then is unreachable (default: 60)")
    Integer timeout;

    @Option(names = "--survey", paramLabel = "pairs|all|round-robin", description = "Pass one: random disjoint pairs; every pair at once (socket backend); or N-1 rounds of disjoint pairs (default: all on the socket backend up to 16 nodes, else pairs)")
    String survey;

    @Option(names = "--group-size", paramLabel = "K", description = "After the pairs, groups of K and a bisection of slow ones (default: 2, pairs only)")
    Integer groupSize;

    @Option(names = "--max-rounds", paramLabel = "N", description = "Stop after N rounds and say what is undecided (default: 6)")
    Integer maxRounds;

    @Option(names = "--margin", paramLabel = "FRACTION", description = "Slow below this fraction of the best results of the run (default: 0.5)")
    Double margin;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the random pairing (default: from the clock; printed in the JSON)")
    Long seed;

    @Option(names = "--backend", paramLabel = "auto|nccl|socket", description = "Backend (default: auto)")
    String backend = Defaults.BACKEND;

    @Option(names = "--sockets-per-peer", paramLabel = "N", description = "TCP connections per pair (socket backend, default: 2)")
    Integer socketsPerPeer;

    @Option(names = "--fabric", paramLabel = "ID", description = "The fabric from the catalog: a pair running alone below its healthy minimum is slow")
    String fabric;

    @Option(names = "--catalog", paramLabel = "FILE", description = "Fabric catalog (default: results/baselines/fabric-catalog.txt, else the built-in copy)")
    Path catalog;

    @Option(names = "--node-name", paramLabel = "NAME", description = "This node's name in the verdicts and the drain list (default: the host name)")
    String nodeName;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder; rank 0 writes <out>/<time>-fleet-<pid>/ (default: results/runs)")
    Path out;

    @Option(names = "--json", paramLabel = "FILE", description = "The JSON (default: fleet.json in the run's folder)")
    Path json;

    @Option(names = "--html", paramLabel = "FILE", description = "The HTML report with the pair heat map (default: fleet.html)")
    Path html;

    @Option(names = "--drain", paramLabel = "FILE", description = "Nodes to drain, one host per line (default: drain.txt)")
    Path drain;

    @Option(names = "--junit", paramLabel = "FILE", description = "JUnit XML (default: fleet-junit.xml)")
    Path junit;

    @Option(names = "--prometheus", paramLabel = "FILE", description = "Prometheus text (default: fleet.prom)")
    Path prometheus;

    @Option(names = "--rendezvous", paramLabel = "HOST:PORT", description = "Rank 0's store address (default: MASTER_ADDR:MASTER_PORT, or loopback for one-node jobs)")
    String rendezvous;

    @Option(names = "--rank", paramLabel = "N", description = "This process's rank, when no launcher sets it")
    Integer rank;

    @Option(names = "--world-size", paramLabel = "N", description = "Number of processes (nodes), when no launcher sets it")
    Integer worldSize;

    @Override
    public Integer call() {
        FleetSettings settings = settings();
        Survey s = null;
        if (survey != null) {
            s = Survey.parse(survey.trim().toLowerCase(Locale.ROOT));
            if (s == null) {
                throw NcclbenchException.usage("--survey: '" + survey + "' is not one of pairs, all, round-robin");
            }
        }
        int k = groupSize == null ? 2 : groupSize;
        if (k < 2) {
            throw NcclbenchException.usage("--group-size must be 2 or more, got " + k);
        }
        int rounds = maxRounds == null ? SearchOptions.DEFAULT_MAX_ROUNDS : maxRounds;
        if (rounds < 1) {
            throw NcclbenchException.usage("--max-rounds must be 1 or more, got " + rounds);
        }
        double m = margin == null ? SearchOptions.DEFAULT_MARGIN : margin;
        if (!(m > 0 && m < 1)) {
            throw NcclbenchException.usage("--margin must be between 0 and 1 (a fraction of the best results), got " + m);
        }
        PathInputs path = PathOptions.resolve(fabric, catalog, null);
        OptionalDouble floor = path.fabric().isPresent() ? OptionalDouble.of(path.fabric().get().healthyMinGBps()) : OptionalDouble.empty();
        String floorSource = path.fabric().map(f -> String.format(Locale.ROOT, "%s's healthy minimum %.2f GB/s (catalog)",
                f.id(), f.healthyMinGBps())).orElse(null);
        FleetRun.Options o = new FleetRun.Options(settings, s, k, rounds, m, floor, floorSource,
                seed != null ? seed : System.nanoTime(), rendezvous, rank, worldSize, nodeName,
                out != null ? out : Defaults.OUT_DIR, new FleetOutputs.Paths(json, html, drain, junit, prometheus));
        return FleetRun.run(o, spec.commandLine().getOut(), spec.commandLine().getErr(), System.getenv()).code;
    }

    FleetSettings settings() {
        List<Long> bytes = new ArrayList<>();
        for (String part : (sizes == null ? "16M,64M" : sizes).split(",")) {
            long v;
            try {
                v = Sizes.parse(part.trim());
            } catch (RuntimeException e) {
                throw NcclbenchException.usage("--sizes: '" + part.trim() + "' is not a size (e.g. 64M)");
            }
            if (v < 1024 || v > Integer.MAX_VALUE - 8) {
                throw NcclbenchException.usage("--sizes: " + part.trim() + " is outside 1K to 2G");
            }
            bytes.add(v);
        }
        int n = positive(iters, FleetSettings.DEFAULT_ITERS, "-n");
        int w = warmup == null ? Defaults.WARMUP_ITERS : warmup;
        if (w < 0) {
            throw NcclbenchException.usage("-w must be 0 or more, got " + w);
        }
        int t = positive(timeout, FleetSettings.DEFAULT_ROUND_SECONDS, "-T");
        String b = backend.trim().toLowerCase(Locale.ROOT);
        if (!b.equals("auto") && Backends.byName(b) == null) {
            throw NcclbenchException.usage("unknown backend '" + backend + "'; known: auto, " + String.join(", ", Backends.names()));
        }
        int spp = positive(socketsPerPeer, Defaults.SOCKETS_PER_PEER, "--sockets-per-peer");
        if (spp > Defaults.MAX_SOCKETS_PER_PEER) {
            throw NcclbenchException.usage("--sockets-per-peer is at most " + Defaults.MAX_SOCKETS_PER_PEER + ", got " + spp);
        }
        return new FleetSettings(bytes, sendrecv, n, w, t, b, spp, System.getenv("NCCL_SOCKET_IFNAME"));
    }

    private static int positive(Integer v, int dflt, String flag) {
        int x = v == null ? dflt : v;
        if (x < 1) {
            throw NcclbenchException.usage(flag + " must be 1 or more, got " + x);
        }
        return x;
    }
}
