package dev.ncclbench.gate;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.baseline.Baseline;
import dev.ncclbench.baseline.BaselineStore;
import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.baseline.RunSamples;
import dev.ncclbench.diagnosis.FabricCatalog;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.gate.curve.Curve;
import dev.ncclbench.gate.curve.CurveRules;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.sweep.RouteInputs;
import dev.ncclbench.sweep.RouteOptions;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A gate decision as gate, report, sweep --html and preflight make it: find the baseline, run the curve check and
 * the gate.
 *
 * @param dir         the baseline folder
 * @param fabric      the fabric the job should reach (catalog id) for the curve check, or null
 * @param catalog     the fabric catalog, or null for the default one
 * @param socketFloor what sockets reach on the same interface (GB/s or a socket run's file), or null
 * @param ignore      curve-check rule ids to skip
 */
public record GateJudge(Path dir, GateOptions options, String fabric, Path catalog, String socketFloor,
                        Set<String> ignore) {
    public GateJudge {
        // in the order given: the first unknown id is the one the usage line names
        ignore = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(ignore));
    }

    /**
     * --fabric and --socket-floor for the curve check. Here --catalog without --fabric is no error (as it is for
     * the sweep): the gate infers a socket run's fabric from it, and preflight's doctor reads its site section.
     */
    public RouteInputs path() {
        return RouteOptions.resolve(fabric, fabric == null ? null : catalog, socketFloor);
    }

    /** Finds the baseline, runs the curve check and the gate; says on err when no baseline applies. */
    public GateReport judge(String runFile, ResultDocument doc, String baselineName, PrintWriter err) {
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
        RouteInputs path = path();
        FabricCatalog cat = catalog != null ? FabricCatalog.load(catalog)
                : Files.isRegularFile(FabricCatalog.DEFAULT_PATH) ? FabricCatalog.load(FabricCatalog.DEFAULT_PATH)
                : FabricCatalog.builtIn();
        Curve curve = Curve.of(RunSamples.of(doc, runFile).values(),
                path.fabric().or(() -> Curve.inferFabric(fp, cat)), path.socketFloor(), fp.nodes());
        List<Finding> findings = CurveRules.book().run(curve, ignore);
        return new Gate(options).judge(runFile, doc, b, bFile, findings);
    }

    /** The baseline the report overlays: the one the gate compared with, if any. */
    public Baseline baselineOf(GateReport gate) {
        return gate.baselineFile() == null ? null : new BaselineStore(dir).resolve(gate.baselineFile());
    }
}
