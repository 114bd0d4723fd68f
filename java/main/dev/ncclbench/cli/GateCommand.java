package dev.ncclbench.cli;

import dev.ncclbench.baseline.BaselineFolder;
import dev.ncclbench.baseline.BaselineStore;
import dev.ncclbench.gate.GateJudge;
import dev.ncclbench.gate.GateOptions;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.gate.GateRules;
import dev.ncclbench.launch.HostName;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultInput;
import dev.ncclbench.env.Host;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** `ncclbench gate`: a run against its baseline, per collective and size; exit 6 on a regression. */
@Command(name = "gate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Compare a run with its baseline per collective and size (Mann-Whitney U on the per-iteration"
                + " samples, bootstrap interval of the median ratio, tolerance), and check the curve's shape.")
public final class GateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "RUN.json", description = "the run's result JSON (or its folder)")
    Path run;

    @Option(names = "--baseline", paramLabel = "NAME|FILE", description = "baseline (default: the one in --baseline-dir whose fingerprint matches the run)")
    String baseline;

    @Mixin
    GateSettings settings;

    @Mixin
    HostMixin host = new HostMixin();

    @Mixin
    GateOutputOptions outputs;

    @Override
    public Integer call() {
        GateJudge judge = settings.judge(host.get());
        Map<String, Path> inputs = new LinkedHashMap<>();
        inputs.put("the run's result", ResultInput.fileOf(run));
        inputs.putAll(settings.inputs(baseline));
        outputs.check(inputs, Map.of());
        ResultDocument doc = ResultInput.read(run);
        GateReport r = judge.judge(run.toString(), doc, baseline);
        outputs.write(r, spec.commandLine().getOut());
        return r.exitCode().code;
    }

    /** The options that shape a gate decision, shared with preflight. */
    static final class GateSettings {
        @Mixin
        BaselineDirFlag dir = new BaselineDirFlag();

        @Option(names = "--curve-only", description = "judge the curve's shape alone, looking for no baseline; without"
                + " it a run that no baseline matches is the verdict NO_BASELINE (gate: exit 7)")
        boolean curveOnly;

        @Option(names = "--tolerance", paramLabel = "PCT", converter = Ranges.Percent.class,
                description = "smallest change that counts (default: 5)")
        double tolerance = GateOptions.DEFAULT_TOLERANCE;

        @Option(names = "--tolerance-at", paramLabel = "SIZE[-SIZE]=PCT", description = "per-size tolerance, e.g. 8-64K=25 (repeatable; the last match wins)")
        List<String> toleranceAt;

        @Option(names = "--latency-below", paramLabel = "SIZE", converter = SizeConverter.class,
                description = "judge sizes under this on latency, the others on busbw (default: 1M)")
        long latencyBelow = GateOptions.DEFAULT_LATENCY_BELOW;

        @Option(names = "--alpha", paramLabel = "P", converter = Ranges.Alpha.class,
                description = "significance level of the one-sided rank test (default: ${DEFAULT-VALUE})")
        double alpha = GateOptions.DEFAULT_ALPHA;

        @Option(names = "--allow-changed", paramLabel = "FIELD[,FIELD]", split = ",",
                description = "gate against a baseline measured differently in these fields (collective, type, op,"
                        + " ranks, nodes, placement, backend, ...); without it such a baseline is refused (exit 2)."
                        + " Versions and NCCL_ settings are gated without it")
        List<String> allowChanged;

        @Option(names = "--require-all-sizes", description = "fail (exit 6) when a size is in the run or the baseline only")
        boolean requireAllSizes;

        @Option(names = "--allow-partial", description = "judge an interrupted or incomplete run on the sizes it measured"
                + " (without it such a run is refused, exit 2)")
        boolean allowPartial;

        @Mixin
        FabricFlags fabricFlags = new FabricFlags();

        @Mixin
        SocketFloorFlag floor = new SocketFloorFlag();

        @Mixin
        RuleFilter rules = new RuleFilter();

        GateOptions options() {
            return new GateOptions(tolerance, GateOptions.overrides(toleranceAt), latencyBelow, alpha);
        }

        /**
         * The files these flags have the gate read, in words, for the check that no output names one of them.
         *
         * @param baseline --baseline, or null
         */
        Map<String, Path> inputs(String baseline) {
            Map<String, Path> in = new LinkedHashMap<>();
            in.put("the baseline", baseline == null ? null
                    : new BaselineStore(BaselineFolder.of(dir.get())).fileOf(baseline));
            in.put("the fabric catalog (--catalog)", fabricFlags.catalog);
            in.put("the socket floor's run (--socket-floor)", floor.socketFloor == null ? null
                    : Path.of(floor.socketFloor));
            return in;
        }

        /**
         * The gate decision these flags ask for; a bad flag is exit 2 here, before anything runs.
         *
         * @param host this node: its name, for the NIC rates of a run made here
         */
        GateJudge judge(Host host) {
            return new GateJudge(dir.get(), options(), fabricFlags.fabric, fabricFlags.catalog, floor.socketFloor,
                    rules.ignored(), GateRules.of(allowChanged, requireAllSizes, allowPartial, curveOnly),
                    HostName.node(null, host));
        }
    }
}
