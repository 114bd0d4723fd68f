package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.baseline.Baseline;
import dev.ncclbench.baseline.BaselineStore;
import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.baseline.RunSamples;
import dev.ncclbench.diagnosis.FabricCatalog;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.gate.Gate;
import dev.ncclbench.gate.GateOptions;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.gate.curve.Curve;
import dev.ncclbench.gate.curve.CurveRules;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.spec.Sizes;
import dev.ncclbench.sweep.PathInputs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

/** `ncclbench gate`: a run against its baseline, per collective and size; exit 6 on a regression. */
@Command(name = "gate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Compare a run with its baseline per collective and size (Mann-Whitney U on the per-iteration"
                + " samples, bootstrap interval of the median ratio, tolerance), and check the curve's shape.",
        footer = "%nExit codes: 0 pass, 2 usage (bad file, corrupt baseline), 6 regression or degraded path.")
public final class GateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "RUN.json", description = "the run's result JSON (or its folder)")
    Path run;

    @Option(names = "--baseline", paramLabel = "NAME|FILE", description = "baseline (default: the one in --dir whose fingerprint matches the run)")
    String baseline;

    @Mixin
    GateSettings settings;

    @Mixin
    GateOutputOptions outputs;

    @Override
    public Integer call() {
        ResultDocument doc = ResultInput.read(run);
        GateReport r = settings.judge(run.toString(), doc, baseline, spec.commandLine().getErr());
        outputs.write(r, spec.commandLine().getOut());
        return r.exitCode().code;
    }

    /** The options that shape a gate decision, shared with preflight. */
    static final class GateSettings {
        @Option(names = "--dir", paramLabel = "DIR", description = "baseline folder (default: results/baselines)")
        Path dir = BaselineStore.DEFAULT_DIR;

        @Option(names = "--tolerance", paramLabel = "PCT", description = "smallest change that counts (default: 5)")
        String tolerance;

        @Option(names = "--tolerance-at", paramLabel = "SIZE[-SIZE]=PCT", description = "per-size tolerance, e.g. 8-64K=25 (repeatable; the last match wins)")
        List<String> toleranceAt;

        @Option(names = "--latency-below", paramLabel = "SIZE", description = "judge sizes under this on latency, the others on busbw (default: 1M)")
        String latencyBelow;

        @Option(names = "--alpha", paramLabel = "P", description = "significance level of the one-sided rank test (default: 0.01)")
        Double alpha;

        @Option(names = "--fabric", paramLabel = "ID", description = "the fabric the job should reach (catalog id) for the curve check")
        String fabric;

        @Option(names = "--catalog", paramLabel = "FILE", description = "fabric catalog (default: results/baselines/fabric-catalog.txt, else built in)")
        Path catalog;

        @Option(names = "--socket-floor", paramLabel = "GBPS|FILE", description = "what sockets reach on the same interface, for the curve check")
        String socketFloor;

        @Option(names = "--ignore", paramLabel = "RULE", split = ",", description = "curve-check rule ids to skip")
        Set<String> ignore = Set.of();

        GateOptions options() {
            double tol = tolerance == null ? GateOptions.DEFAULT_TOLERANCE : GateOptions.percent("--tolerance", tolerance);
            long below = GateOptions.DEFAULT_LATENCY_BELOW;
            if (latencyBelow != null) {
                try {
                    below = Sizes.parse(latencyBelow);
                } catch (IllegalArgumentException e) {
                    throw NcclbenchException.usage("--latency-below: " + e.getMessage());
                }
            }
            double a = alpha == null ? GateOptions.DEFAULT_ALPHA : alpha;
            if (!(a > 0 && a < 0.5)) {
                throw NcclbenchException.usage("--alpha must be above 0 and under 0.5, got " + alpha);
            }
            return new GateOptions(tol, GateOptions.overrides(toleranceAt), below, a);
        }

        /**
         * --fabric and --socket-floor for the curve check. Here --catalog without --fabric is no error (as it is for
         * the sweep): the gate infers a socket run's fabric from it, and preflight's doctor reads its site section.
         */
        PathInputs path() {
            return PathOptions.resolve(fabric, fabric == null ? null : catalog, socketFloor);
        }

        /** Finds the baseline, runs the curve check and the gate; says on err when no baseline applies. */
        GateReport judge(String runFile, ResultDocument doc, String baselineName, PrintWriter err) {
            GateOptions opts = options();
            for (String id : ignore) {
                if (!CurveRules.book().knows(id)) {
                    throw NcclbenchException.usage("--ignore: no curve rule '" + id + "'");
                }
            }
            BaselineStore store = new BaselineStore(dir);
            Fingerprint fp = Fingerprint.of(doc);
            Baseline b = null;
            String bFile = null;
            if (baselineName != null) {
                b = store.resolve(baselineName);
                bFile = baselineName;
            } else {
                Optional<BaselineStore.Match> m = store.find(fp);
                if (m.isPresent()) {
                    b = m.get().baseline();
                    bFile = m.get().file().toString();
                } else {
                    err.println("ncclbench: no baseline in " + dir + " matches this run's topology (" + fp.summary()
                            + "); the curve check alone decides (record one: ncclbench baseline record " + runFile + ")");
                }
            }
            PathInputs path = path();
            FabricCatalog cat = catalog != null ? FabricCatalog.load(catalog)
                    : Files.isRegularFile(FabricCatalog.DEFAULT_PATH) ? FabricCatalog.load(FabricCatalog.DEFAULT_PATH)
                    : FabricCatalog.builtIn();
            Curve curve = Curve.of(RunSamples.of(doc, runFile).values(),
                    path.fabric().or(() -> Curve.inferFabric(fp, cat)), path.socketFloor(), fp.nodes());
            List<Finding> findings = CurveRules.book().run(curve, ignore);
            return new Gate(opts).judge(runFile, doc, b, bFile, findings);
        }
    }
}
