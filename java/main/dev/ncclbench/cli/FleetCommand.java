package dev.ncclbench.cli;

import dev.ncclbench.baseline.BaselineFolder;
import dev.ncclbench.env.Variable;
import dev.ncclbench.fleet.FleetOutputs;
import dev.ncclbench.fleet.FleetRun;
import dev.ncclbench.fleet.FleetSettings;
import dev.ncclbench.fleet.FleetFabric;
import dev.ncclbench.fleet.SearchOptions;
import dev.ncclbench.fleet.Survey;
import dev.ncclbench.spec.Defaults;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** `ncclbench fleet`: one process per node; finds the slow node and the bad link of an allocation. */
@Command(name = "fleet", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Find the slow node and the bad link of an allocation: rounds of short all_reduces in pairs"
                + " (and groups), each on its own connections, planned and judged by rank 0. Run one process per node.",
        footer = "%nThe drain list names its run on its first line ('# ncclbench fleet run ID'), then one host per line:"
                + " only nodes of the job (--node-list or SLURM_JOB_NODELIST, when known), never a range.%n"
                + "%nA round measures for a time budget: a size runs -n iterations and about 1 s more where they fit, and"
                + " fewer than -n once it has used its share of the round.%n"
                + "%n-T is the watchdog, as in sweep; a round's limit is --round-timeout (fleet's -T before: what was"
                + " 'fleet -T 120' is 'fleet --round-timeout 120' now).%n"
                + "%n--json's default is fleet.json in the run's folder; with --json - rank 0 keeps it there too and"
                + " prints it on standard output, and every rank's text goes to standard error.")
public final class FleetCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    HostMixin host = new HostMixin();

    @Option(names = "--sizes", paramLabel = "SIZE", split = ",", converter = FleetSize.class,
            description = "all_reduce sizes per group, binary K/M/G, 1K to 2G (default: 16M,64M)")
    List<Long> sizes;

    /** -n, -w as in sweep, fleet's defaults: a few timed iterations, each round measures for a time budget. */
    @Mixin
    IterationFlags iterations = new IterationFlags(FleetSettings.DEFAULT_ITERS, Defaults.WARMUP_ITERS);

    @Option(names = "--sendrecv", description = "Also a sendrecv both ways at the same sizes; a group's figure is the lower of the two")
    boolean sendrecv;

    @Option(names = "--round-timeout", paramLabel = "SECONDS", converter = Ranges.Positive.class, description = "Limit"
            + " of one round: a node that has not joined or answered by then is unreachable; half of it is the round's"
            + " measuring budget (fleet's -T before; default: ${DEFAULT-VALUE})")
    int roundTimeout = FleetSettings.DEFAULT_ROUND_SECONDS;

    /** -T as in sweep: the watchdog of each group's collectives (0: the round's limit; never longer than it). */
    @Mixin
    WatchdogFlag watchdog = new WatchdogFlag();

    @Option(names = "--survey", paramLabel = "MODE", converter = Choices.SurveyChoice.class,
            completionCandidates = Choices.SurveyNames.class, description = "Pass one, ${COMPLETION-CANDIDATES}: random"
            + " disjoint pairs; every pair at once (socket backend); N-1 rounds of disjoint pairs; or every pair in"
            + " log2(N)-3 rounds, many at once (socket backend) (default: all on the socket backend up to 16 nodes,"
            + " batches up to 1448, else pairs)")
    Survey survey;

    @Option(names = "--group-size", paramLabel = "K", converter = Ranges.AtLeastTwo.class, description = "After the"
            + " pairs, groups of K and a bisection of slow ones (default: ${DEFAULT-VALUE}, pairs only)")
    int groupSize = 2;

    @Option(names = "--max-rounds", paramLabel = "N", converter = Ranges.Positive.class,
            description = "Stop after N rounds and say what is undecided (default: ${DEFAULT-VALUE})")
    int maxRounds = SearchOptions.DEFAULT_MAX_ROUNDS;

    @Option(names = "--margin", paramLabel = "FRACTION", converter = Ranges.Fraction.class,
            description = "Slow below this fraction of the best results of the run (default: ${DEFAULT-VALUE})")
    double margin = SearchOptions.DEFAULT_MARGIN;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the random pairing (default: from the clock; printed in the JSON)")
    Long seed;

    @Mixin
    BackendFlags backend = new BackendFlags();

    @Mixin
    FabricFlags fabricFlags = new FabricFlags();

    @Option(names = "--rails", paramLabel = "IFACES", description = "After the node rounds, a rail round: rail r of each"
            + " node with rail r of another, bound to that rail's interface, and a verdict per node and rail. This node's"
            + " rail interfaces in rail order: names (eth1,eth2,eth3,eth4) or NAME* prefixes (socket backend; a rail's"
            + " line rate from --fabric or a site line of --catalog)")
    String rails;

    @Option(names = "--baseline", paramLabel = "NAME|FILE", description = "Judge each pair against its rate in this fleet"
            + " baseline (recorded with --record-baseline) with the gate's test; pairs it has no rate for are judged"
            + " relative (and by --fabric)")
    String baseline;

    @Option(names = "--record-baseline", paramLabel = "NAME", description = "After the search, record every fine pair"
            + " between good nodes as the fleet baseline NAME (<baseline-dir>/NAME.fleet-baseline.json); a pair's rate"
            + " is kept per load, so record with --survey round-robin to have every pair alone")
    String recordBaseline;

    @Mixin
    BaselineDirFlag baselineDir = new BaselineDirFlag();

    @Option(names = "--node-name", paramLabel = "NAME", description = "This node's name in the verdicts and the drain list"
            + " (default: SLURMD_NODENAME under Slurm, else the kernel's host name up to the first dot, as NCCL takes it)")
    String nodeName;

    @Option(names = "--node-list", paramLabel = "LIST", description = "Every rank's node name in rank order, Slurm's syntax"
            + " (gpu[01-08]): names a node that never joined (default: SLURM_JOB_NODELIST with one task per node)")
    String nodeList;

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder; rank 0 writes"
            + " <out>/<time>-fleet-<pid>/ (default: ${DEFAULT-VALUE})")
    Path out = Defaults.OUT_DIR;

    /** The JSON (default: fleet.json in the run's folder), or '-': rank 0 prints it on stdout, the text on stderr. */
    @Mixin
    JsonOutput json = new JsonOutput();

    @Option(names = "--html", paramLabel = "FILE", description = "The HTML report with the pair heat map (default: fleet.html)")
    Path html;

    @Option(names = "--drain", paramLabel = "FILE", description = "Nodes to drain: a first line '# ncclbench fleet run ID',"
            + " then one host per line (default: drain.txt)")
    Path drain;

    @Option(names = "--run-id", paramLabel = "ID", description = "The ID the drain list's first line names, so that a"
            + " script that drains can tell its own run's list from an older one (default: the run's folder name)")
    String runId;

    @Option(names = "--allow-unauthenticated", description = "Write the drain list even when the rendezvous had no secret"
            + " (NCCLBENCH_TOKEN): then any process that knows the job id could have joined and named nodes to drain")
    boolean allowUnauthenticated;

    @Option(names = "--junit", paramLabel = "FILE", description = "JUnit XML (default: fleet-junit.xml)")
    Path junit;

    @Option(names = "--prometheus", paramLabel = "FILE", description = "Prometheus text (default: fleet.prom)")
    Path prometheus;

    @Mixin
    LaunchFlags launchFlags = new LaunchFlags();

    /** One --sizes entry: a size fleet can allocate for an all_reduce, 1K to 2G. */
    static final class FleetSize implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long v = new SizeConverter().convert(value.trim());
            if (v < 1024 || v > Integer.MAX_VALUE - 8) {
                throw new TypeConversionException(value.trim() + " is outside 1K to 2G");
            }
            return v;
        }
    }

    @Override
    public Integer call() {
        json.refuseNotJson();
        FleetSettings settings = settings();
        FleetFabric fabric = FleetFabric.of(fabricFlags.fabric, fabricFlags.catalog, rails != null);
        FleetRun.Options o = new FleetRun.Options(settings, new SearchOptions(survey, groupSize, maxRounds, margin,
                fabric.floor(), seed != null ? seed : System.nanoTime()), fabric.floorSource(),
                new FleetRun.Node(launchFlags.rendezvous, launchFlags.rank, launchFlags.worldSize, nodeName, nodeList),
                new FleetRun.Files(out, new FleetOutputs.Paths(json.file(), html, drain, junit, prometheus), runId,
                        allowUnauthenticated),
                new FleetRun.Baselines(baseline, recordBaseline, BaselineFolder.of(baselineDir.get())),
                rails == null ? FleetRun.Rails.NONE : new FleetRun.Rails(rails, fabric.sites()));
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        return FleetRun.run(o, json.onStdout() ? err : stdout, err, host.get(), written -> {
            if (json.onStdout()) {
                JsonOutput.print(written, stdout);
            }
        }).code;
    }

    FleetSettings settings() {
        return new FleetSettings(new ArrayList<>(sizes == null ? FleetSettings.DEFAULT_SIZES : sizes), sendrecv,
                iterations.iters, iterations.warmup, roundTimeout, watchdog.timeout, backend.backend,
                backend.socketsPerPeer, host.get().get(Variable.NCCL_SOCKET_IFNAME));
    }
}
