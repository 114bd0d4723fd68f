package dev.ncclbench.report;

import dev.ncclbench.baseline.Baseline;
import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.baseline.Quantiles;
import dev.ncclbench.baseline.RunSamples;
import dev.ncclbench.baseline.SizeSamples;
import dev.ncclbench.diagnosis.FabricEntry;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.gate.SizeResult;
import dev.ncclbench.results.ResultDocument;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What a report shows: each run's curve (busbw and median latency per size, per collective), the baseline's,
 * the line rate and socket floor, and the gate's decision for the last run.
 *
 * @param gate the last run against the baseline (or the curve check alone); null when not judged
 */
public record ReportData(List<Curve> curves, Optional<FabricEntry> fabric, OptionalDouble socketFloor,
                         long latencyBelow, GateReport gate, List<Finding> findings, String title) {

    /** One line on the plots. */
    public record Curve(String label, String collective, boolean baseline, List<Point> points) {
    }

    /** busbw in GB/s at the median per-call time, and that time in us. */
    public record Point(long size, double busbw, double medianUs) {
    }

    /** A run to plot, labelled for the legend (its file name, or its start time). */
    public record Run(String label, String file, ResultDocument doc) {
    }

    public static ReportData of(List<Run> runs, Baseline baseline, Optional<FabricEntry> fabric,
                                OptionalDouble floor, long latencyBelow, GateReport gate, String title) {
        List<Curve> curves = new ArrayList<>();
        if (baseline != null) {
            Map<String, List<Point>> byColl = new LinkedHashMap<>();
            for (Baseline.Entry e : baseline.entries()) {
                if (e.root() <= 0 && !Boolean.TRUE.equals(e.inPlace())) {
                    byColl.computeIfAbsent(e.collective(), c -> new ArrayList<>())
                            .add(new Point(e.size(), e.stats().busbwMedian(), e.stats().medianUs()));
                }
            }
            byColl.forEach((c, p) -> curves.add(new Curve("baseline " + baseline.name(), c, true, sorted(p))));
        }
        for (Run r : runs) {
            Map<String, List<Point>> byColl = new LinkedHashMap<>();
            for (SizeSamples s : RunSamples.of(r.doc(), r.file()).values()) {
                if (s.key().root() <= 0 && !s.key().inPlace()) { // out of place: nccl-tests' headline
                    double m = Quantiles.median(s.pooled());
                    byColl.computeIfAbsent(s.key().collective(), c -> new ArrayList<>())
                            .add(new Point(s.key().size(), s.busbwAt(m), m));
                }
            }
            byColl.forEach((c, p) -> curves.add(new Curve(r.label(), c, false, sorted(p))));
        }
        List<Finding> findings = gate == null ? List.of() : gate.curve();
        return new ReportData(List.copyOf(curves), fabric, floor, latencyBelow, gate, findings, title);
    }

    /** The sizes the gate failed, to mark on the plots. */
    public List<SizeResult> marked() {
        return gate == null ? List.of() : gate.failing();
    }

    public boolean manyCollectives() {
        return curves.stream().map(Curve::collective).distinct().count() > 1;
    }

    public Fingerprint fingerprint() {
        return gate == null ? null : gate.runFingerprint();
    }

    private static List<Point> sorted(List<Point> p) {
        List<Point> s = new ArrayList<>(p);
        s.sort((a, b) -> Long.compare(a.size(), b.size()));
        return List.copyOf(s);
    }
}
