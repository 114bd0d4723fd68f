package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.Variable;
import dev.ncclbench.preflight.Preflight;
import dev.ncclbench.preflight.PreflightRequest;
import dev.ncclbench.preflight.PreflightRun;
import dev.ncclbench.spec.SweepProfile;
import dev.ncclbench.diagnosis.RouteInputs;
import dev.ncclbench.diagnosis.RouteOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * `ncclbench preflight`: doctor on this host, a short sweep with its log reading and path verdict, then the gate
 * against the matching baseline (or the curve check alone), and one verdict line: PASS, DEGRADED or FAIL with the
 * reason. The steps run in {@link PreflightRun};
 * {@link Preflight} decides.
 */
@Command(name = "preflight", sortOptions = false, versionProvider = VersionProvider.class,
        description = "Before a long job: doctor's host checks, a short sweep (8 B to 1G with GPUs, 64M on sockets: 10 s"
                + " in all on an idle 2-core VM without a GPU), the path verdict from"
                + " NCCL's log, the gate against the matching baseline; one line PASS / DEGRADED / FAIL with the reason.",
        footer = "%nVerdict: FAIL of any step over DEGRADED over PASS; the line names the worst reason and how many more."
                + "%nA doctor error from a rule that degrades the path (e.g. SOCKET-DEFAULT-SLOW-NIC) is DEGRADED, any"
                + " other doctor error is FAIL (exit 3); a single process then skips the sweep, a rank with peers still"
                + " joins it so that they do not wait for it."
                + "%nWith --json - standard output holds the JSON document alone: doctor's findings, the sweep's table and"
                + " the verdict line go to standard error.")
public final class PreflightCommand implements Callable<Integer> {

    @Mixin
    HostMixin host = new HostMixin();

    @Spec
    CommandSpec spec;

    @Mixin
    HelpFlags helpFlags = new HelpFlags();

    /** The sweep's own flags, with preflight's shorter defaults ({@link SweepProfile#PREFLIGHT}). */
    @Mixin
    SweepOptions sweepOptions = new SweepOptions(SweepProfile.PREFLIGHT);

    @Option(names = "--sweep-arg", paramLabel = "ARG", description = "one more sweep flag, passed as is (repeatable:"
            + " --sweep-arg=-g --sweep-arg=8); the sweep's flags may also be given directly")
    List<String> sweepArgs = new ArrayList<>();

    @Option(names = "--baseline", paramLabel = "NAME|FILE", description = "baseline (default: the one in --baseline-dir whose fingerprint matches)")
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
        // --json -: stdout holds the one JSON document; the findings, the sweep's table and the verdict go to stderr
        PrintWriter human = outputs.jsonOnStdout() ? e : o;
        // a bad flag is exit 2 before the sweep's half minute
        Map<String, Path> report = new LinkedHashMap<>();
        report.put("--html", html);
        outputs.check(settings.inputs(baseline), report);
        PreflightRun.Outcome r = new PreflightRun(human, e, host.get()).run(request());
        outputs.write(r.report(), o);
        // every rank prints its own verdict: its doctor judged its own host (a Slurm prolog reads each node's)
        human.println(r.report().verdict().line());
        human.flush();
        return r.exitCode().code;
    }

    PreflightRequest request() {
        var gate = settings.judge(host.get());
        Set<String> ignored = doctorIgnored();
        addSweepArgs();
        List<String> argv = new ArrayList<>(List.of("ncclbench"));
        argv.addAll(spec.root().commandLine().getParseResult().originalArgs());
        // the sweep reads a catalog only to look --fabric up; without it the catalog is doctor's and the gate's
        RouteInputs sweepPath = RouteOptions.resolve(settings.fabricFlags.fabric,
                settings.fabricFlags.fabric == null ? null : settings.fabricFlags.catalog, settings.floor.socketFloor);
        return new PreflightRequest(sweepOptions.spec(null, host.get().get(Variable.NCCL_SOCKET_IFNAME)),
                sweepOptions.launch(false), sweepPath, argv, !noDoctor, ignored, settings.fabricFlags.catalog, gate,
                baseline, html, !outputs.jsonOnStdout());
    }

    private Set<String> doctorIgnored() {
        return PreflightRequest.doctorIgnored(doctorIgnore, settings.rules.ignored());
    }

    /**
     * --sweep-arg's flags, parsed by the same {@link SweepOptions} and set on preflight's: a flag is given once,
     * either way. What is not a sweep flag that preflight passes on (--json, --html: preflight's own) is refused.
     */
    private void addSweepArgs() {
        if (sweepArgs.isEmpty()) {
            return;
        }
        CommandLine.ParseResult given;
        try {
            given = new CommandLine(new SweepArgs()).parseArgs(sweepArgs.toArray(String[]::new));
        } catch (CommandLine.ParameterException ex) {
            throw NcclbenchException.usage("--sweep-arg: " + ex.getMessage());
        }
        CommandLine.ParseResult mine = spec.commandLine().getParseResult();
        for (CommandLine.Model.OptionSpec o : given.matchedOptions()) {
            if (mine != null && mine.hasMatchedOption(o.longestName())) {
                throw NcclbenchException.usage("--sweep-arg " + o.longestName() + ": " + o.longestName()
                        + " is given to preflight already (a sweep flag is given once)");
            }
            spec.findOption(o.longestName()).setValue(o.getValue());
        }
    }

    /** --sweep-arg=-d passes "-d" on, though preflight has -d itself: picocli would take it for preflight's own. */
    static CommandLine acceptFlagsAsSweepArgs(CommandLine preflight) {
        return preflight.setAllowOptionsAsOptionParameters(true);
    }

    /** The holder --sweep-arg is parsed with: the sweep's options and nothing else. */
    @Command(name = "sweep-arg")
    static final class SweepArgs {
        @Mixin
        SweepOptions options = new SweepOptions(SweepProfile.PREFLIGHT);
    }
}
