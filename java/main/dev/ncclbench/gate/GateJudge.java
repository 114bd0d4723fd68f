package dev.ncclbench.gate;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backends;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.baseline.Baseline;
import dev.ncclbench.baseline.BaselineFolder;
import dev.ncclbench.baseline.BaselineStore;
import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.baseline.RunSamples;
import dev.ncclbench.baseline.SizeKey;
import dev.ncclbench.baseline.SizeSamples;
import dev.ncclbench.diagnosis.CatalogLocation;
import dev.ncclbench.diagnosis.FabricCatalog;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.gate.curve.Curve;
import dev.ncclbench.gate.curve.CurveRules;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.diagnosis.RouteInputs;
import dev.ncclbench.diagnosis.RouteOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A gate decision as gate, report, sweep --html and preflight make it: find the baseline, run the curve check and
 * the gate.
 *
 * @param dir         the baseline folder as given (--baseline-dir), or null for {@link BaselineFolder}'s
 * @param fabric      the fabric the job should reach (catalog id) for the curve check, or null
 * @param catalog     the fabric catalog, or null for the default one
 * @param socketFloor what sockets reach on the same interface (GB/s or a socket run's file), or null
 * @param ignore      rule ids to skip: the curve check's are kept, the other books' (--ignore is every book's) left out
 * @param rules       what the gate accepts to compare
 * @param thisHost    this node's name (launch/HostName.node with the process's environment): a run made here gets
 *                    its NIC rates in the fingerprint; null: none
 */
public record GateJudge(Path dir, GateOptions options, String fabric, Path catalog, String socketFloor,
                        Set<String> ignore, GateRules rules, String thisHost) {
    public GateJudge {
        // in the order given: the first unknown id is the one the usage line names
        Set<String> curve = new java.util.LinkedHashSet<>();
        ignore.stream().filter(CurveRules.book()::knows).forEach(curve::add);
        ignore = java.util.Collections.unmodifiableSet(curve);
        rules = rules == null ? GateRules.DEFAULT : rules;
        dir = BaselineFolder.of(dir);
    }

    /** The gate's defaults: what report and sweep --html judge with. */
    public GateJudge(Path dir, GateOptions options, String fabric, Path catalog, String socketFloor,
                     Set<String> ignore, String thisHost) {
        this(dir, options, fabric, catalog, socketFloor, ignore, GateRules.DEFAULT, thisHost);
    }

    /**
     * --fabric and --socket-floor for the curve check. Here --catalog without --fabric is no error (as it is for
     * the sweep): the gate infers a socket run's fabric from it, and preflight's doctor reads its site section.
     */
    public RouteInputs path() {
        return RouteOptions.resolve(fabric, fabric == null ? null : catalog, socketFloor);
    }

    /**
     * The one gate decision of every command (gate, preflight, report, sweep --html, fleet --baseline): finds the
     * baseline, refuses a run that did not finish or was measured differently from the baseline named (exit 2,
     * every difference named), runs the curve check and the gate. A baseline found by fingerprint is one measured
     * the same way; when there is none the verdict is NO_BASELINE (exit 7) naming where it looked, unless the
     * rules ask for the curve check alone (--curve-only). Zero sizes compared is the verdict NOTHING_TO_COMPARE
     * (exit 2). Neither is ever PASS.
     */
    public GateReport judge(String runFile, ResultDocument doc, String baselineName) {
        if (rules.curveOnly() && baselineName != null) {
            throw NcclbenchException.usage("--curve-only judges the curve alone and --baseline " + baselineName
                    + " names a baseline to compare with: give one of them");
        }
        Admission.checkFinished(runFile, doc, rules.allowPartial());
        BaselineStore store = new BaselineStore(dir);
        Fingerprint fp = Fingerprint.of(doc, thisHost);
        Map<SizeKey, SizeSamples> lines = RunSamples.of(doc, runFile);
        Set<String> runCollectives = Admission.collectives(lines.keySet());
        Baseline b = null;
        String bFile = null;
        NoBaseline none = null;
        if (baselineName != null) {
            b = store.resolve(baselineName);
            bFile = baselineName;
            List<String> blockers = Admission.blockers(b.fingerprint(), Admission.collectivesOf(b), fp, runCollectives,
                    rules.allowChanged());
            if (!blockers.isEmpty()) {
                throw Admission.refused(runFile, fp, b.name(), blockers);
            }
        } else if (!rules.curveOnly()) { // --curve-only: no baseline is looked for
            Optional<BaselineStore.Match> m = store.find(fp, c -> Admission.blockers(c.fingerprint(),
                    Admission.collectivesOf(c), fp, runCollectives, rules.allowChanged()).isEmpty());
            if (m.isPresent()) {
                b = m.get().baseline();
                bFile = m.get().file().toString();
            } else {
                none = new NoBaseline(dir.toString(), Files.isDirectory(dir) ? store.files().size() : -1, fp.id(),
                        fp.summary() + ", " + String.join(",", runCollectives) + " "
                                + fp.measurement().getOrDefault("type", "") + " "
                                + fp.measurement().getOrDefault("op", ""),
                        "ncclbench baseline record " + runFile + " --baseline-dir " + dir);
            }
        }
        RouteInputs path = path();
        FabricCatalog cat = CatalogLocation.read(catalog);
        Curve curve = Curve.of(lines.values(),
                path.fabric().or(() -> Curve.inferFabric(fp, cat)), path.socketFloor(), fp.nodes(),
                Backends.capabilitiesOf(doc.backend()).contains(Capability.SOCKET_INTERFACE),
                doc.spec() == null ? 0 : doc.spec().iterations().iters());
        if (path.fabric().isPresent() && curve.applicableFabric().isEmpty()) {
            // named and then ignored would be a PASS of nothing: a fabric the run's bytes could not cross is refused
            throw NcclbenchException.usage("--fabric " + path.fabric().get().id() + " is "
                    + (path.fabric().get().interNode() ? "an inter-node" : "an intra-node") + " fabric and " + runFile
                    + " ran on " + fp.nodes() + (fp.nodes() == 1 ? " node" : " nodes") + ": its bytes did not cross it;"
                    + " name the fabric they took");
        }
        List<Finding> findings = CurveRules.book().run(curve, ignore);
        return new Gate(options, rules).judge(runFile, doc, lines, fp, b, bFile, findings, none);
    }

    /** The same decision, judging an unfinished run on its measured sizes (sweep --html of an interrupted run). */
    public GateJudge allowingPartial() {
        return new GateJudge(dir, options, fabric, catalog, socketFloor, ignore, rules.allowingPartial(), thisHost);
    }

    /** The baseline the report overlays: the one the gate compared with, if any. */
    public Baseline baselineOf(GateReport gate) {
        return gate.baselineFile() == null ? null : new BaselineStore(dir).resolve(gate.baselineFile());
    }
}
