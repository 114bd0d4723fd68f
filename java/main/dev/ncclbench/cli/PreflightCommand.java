package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.doctor.rules.DoctorRules;
import dev.ncclbench.preflight.Preflight;
import dev.ncclbench.preflight.PreflightRequest;
import dev.ncclbench.preflight.PreflightRun;
import dev.ncclbench.spec.Defaults;
import dev.ncclbench.output.OutputTarget;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * `ncclbench preflight`: doctor on this host, a short sweep with its log reading and path verdict, then the gate
 * against the matching baseline (or the curve check alone), and one verdict line: PASS, DEGRADED or FAIL with the
 * reason. The steps run in {@link PreflightRun};
 * {@link Preflight} decides.
 */
@Command(name = "preflight", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Before a long job: doctor's host checks, a short sweep (about a minute), the path verdict from"
                + " NCCL's log, the gate against the matching baseline; one line PASS / DEGRADED / FAIL with the reason.",
        footer = "%nVerdict: FAIL of any step over DEGRADED over PASS; the line names the worst reason and how many more."
                + "%nA doctor error from a rule that degrades the path (e.g. SOCKET-DEFAULT-SLOW-NIC) is DEGRADED, any"
                + " other doctor error is FAIL (exit 3); a single process then skips the sweep, a rank with peers still"
                + " joins it so that they do not wait for it.")
public final class PreflightCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", converter = SizeConverter.class, description = "Minimum size (default: ${DEFAULT-VALUE})")
    long minBytes = Defaults.PREFLIGHT_MIN_BYTES;

    @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", converter = SizeConverter.class, description = "Maximum size (default: 1G with GPUs, 64M on sockets)")
    Long maxBytes;

    @Option(names = {"-f", "--stepfactor"}, paramLabel = "N", converter = Ranges.StepFactor.class,
            description = "Multiplicative step (default: ${DEFAULT-VALUE})")
    long stepFactor = Defaults.PREFLIGHT_STEP_FACTOR;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", converter = Ranges.Positive.class,
            description = "Timed iterations per size (default: ${DEFAULT-VALUE})")
    int iters = Defaults.PREFLIGHT_ITERS;

    @Option(names = {"-w", "--warmup_iters"}, paramLabel = "N", converter = Ranges.NonNegative.class,
            description = "Warm-up iterations per size (default: ${DEFAULT-VALUE})")
    int warmup = Defaults.PREFLIGHT_WARMUP_ITERS;

    @Option(names = "--collective", paramLabel = "NAME[,NAME]", description = "Collectives (default: ${DEFAULT-VALUE})")
    String collective = Defaults.COLLECTIVE;

    @Option(names = "--backend", paramLabel = "NAME", converter = Choices.Backend.class,
            completionCandidates = Choices.BackendNames.class,
            description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    String backend = Defaults.BACKEND;

    @Option(names = "--sweep-arg", paramLabel = "ARG", description = "one more sweep flag, passed as is (repeatable: --sweep-arg=-g --sweep-arg=8)")
    List<String> sweepArgs = new ArrayList<>();

    @Option(names = "--ranks", paramLabel = "N", converter = Ranges.LocalRanks.class,
            description = "Local ranks as threads (socket backend)")
    Integer ranks;

    @Mixin
    LaunchFlags launchFlags = new LaunchFlags();

    @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: ${DEFAULT-VALUE})")
    Path out = Defaults.OUT_DIR;

    @Option(names = "--baseline", paramLabel = "NAME|FILE", description = "baseline (default: the one in --dir whose fingerprint matches)")
    String baseline;

    @Option(names = "--html", paramLabel = "FILE", description = "also write the HTML report")
    Path html;

    @Option(names = "--no-doctor", description = "skip doctor's host checks before the sweep")
    boolean noDoctor;

    @Option(names = "--doctor-ignore", paramLabel = "ID", description = "leave out this doctor rule (repeatable; --ignore does the same for every book)")
    List<String> doctorIgnore = new ArrayList<>();

    @Mixin
    GateCommand.GateSettings settings;

    @Mixin
    GateOutputOptions outputs;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter e = spec.commandLine().getErr();
        // --json: stdout holds the one JSON document; the findings, the sweep's table and the verdict go to stderr
        PrintWriter human = outputs.json ? e : o;
        // a bad flag is exit 2 before a minute of sweeping
        outputs.check();
        OutputTarget.check("--html", html);
        PreflightRun.Outcome r = new PreflightRun(human, e).run(request());
        outputs.write(r.report(), o);
        // every rank prints its own verdict: its doctor judged its own host (a Slurm prolog reads each node's)
        human.println(r.report().verdict().line());
        human.flush();
        return r.exitCode().code;
    }

    PreflightRequest request() {
        var gate = settings.judge();
        Set<String> ignored = doctorIgnored();
        SweepCommand sweep = sweep();
        List<String> argv = new ArrayList<>(List.of("ncclbench"));
        argv.addAll(spec.root().commandLine().getParseResult().originalArgs());
        return new PreflightRequest(sweep.resolve(), maxBytes != null, sweep.launch(), sweep.path(), argv, !noDoctor,
                ignored, settings.fabricFlags.catalog, gate, baseline, html, !outputs.json);
    }

    private Set<String> doctorIgnored() {
        for (String id : doctorIgnore) {
            if (!DoctorRules.book().knows(id)) {
                throw NcclbenchException.usage("--doctor-ignore " + id + ": no doctor rule has that id (see ncclbench rules)");
            }
        }
        // --ignore is every book's: its doctor ids leave doctor's findings out too
        Set<String> ignored = new LinkedHashSet<>(doctorIgnore);
        ignored.addAll(settings.rules.ignoredIn(DoctorRules.book()));
        return ignored;
    }

    /**
     * The sweep's flags: --sweep-arg's, then preflight's own. A flag preflight always sets (or was given) cannot
     * come through --sweep-arg as well: a sweep flag is given once.
     */
    private SweepCommand sweep() {
        SweepCommand s = new SweepCommand();
        CommandLine.ParseResult given;
        try {
            given = new CommandLine(s).parseArgs(sweepArgs.toArray(String[]::new));
        } catch (CommandLine.ParameterException ex) {
            throw NcclbenchException.usage("--sweep-arg: " + ex.getMessage());
        }
        once(given, "-b", "-e", "-f", "-n", "-w", "--collective", "--backend", "--json", "--out", "--no-progress");
        s.minBytes = minBytes;
        s.maxBytes = maxBytes != null ? maxBytes : Defaults.PREFLIGHT_MAX_BYTES_GPU;
        s.stepFactor = stepFactor;
        s.iters = iters;
        s.warmup = warmup;
        s.collective = collective;
        s.backend = backend;
        s.out = out;
        s.noProgress = true;
        if (ranks != null) {
            once(given, "--ranks");
            s.ranks = ranks;
        }
        if (launchFlags.rank != null) {
            once(given, "--rank");
            s.launchFlags.rank = launchFlags.rank;
        }
        if (launchFlags.worldSize != null) {
            once(given, "--world-size");
            s.launchFlags.worldSize = launchFlags.worldSize;
        }
        if (launchFlags.rendezvous != null) {
            once(given, "--rendezvous");
            s.launchFlags.rendezvous = launchFlags.rendezvous;
        }
        if (settings.fabricFlags.fabric != null) {
            once(given, "--fabric");
            s.fabricFlags.fabric = settings.fabricFlags.fabric;
            // the sweep reads a catalog only to look --fabric up; without it the catalog is doctor's and the gate's
            if (settings.fabricFlags.catalog != null) {
                once(given, "--catalog");
                s.fabricFlags.catalog = settings.fabricFlags.catalog;
            }
        }
        if (settings.floor.socketFloor != null) {
            once(given, "--socket-floor");
            s.floor.socketFloor = settings.floor.socketFloor;
        }
        return s;
    }

    private static void once(CommandLine.ParseResult given, String... flags) {
        for (String f : flags) {
            if (given.hasMatchedOption(f)) {
                throw NcclbenchException.usage("--sweep-arg " + f + ": preflight gives the sweep " + f
                        + " itself (use preflight's own flag)");
            }
        }
    }
}
