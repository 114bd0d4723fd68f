package dev.ncclbench.report;

import dev.ncclbench.baseline.Baseline;
import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.baseline.Quantiles;
import dev.ncclbench.baseline.RunSamples;
import dev.ncclbench.baseline.SizeSamples;
import dev.ncclbench.diagnosis.CopyLimit;
import dev.ncclbench.diagnosis.FabricEntry;
import dev.ncclbench.env.HostVersions;
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
 * @param gate  the last run against the baseline (or the curve check alone); null when not judged
 * @param facts what the judged (last) run was: when, where, on what, with which command
 */
public record ReportData(List<Curve> curves, Optional<FabricEntry> fabric, OptionalDouble socketFloor,
                         long latencyBelow, GateReport gate, List<Finding> findings, String title, boolean oneRank,
                         Optional<CopyLimit> copyLimit, List<RunFacts.Fact> facts) {
    /**
     * The placement the curves plot: nccl-tests' headline, as its table's first columns. The in-place rows are in the
     * per-size table; on one rank they move no data.
     */
    public static final String PLOTTED_PLACEMENT = "out-of-place";

    /** One line on the plots. */
    public record Curve(String label, String collective, boolean baseline, List<Point> points) {
    }

    /** busbw in GB/s at the median per-call time, and that time in us. */
    public record Point(long size, double busbw, double medianUs) {
        /** algbw at the median time, GB/s: the size over the time, as nccl-tests' algbw is for every collective. */
        public double algbw() {
            return medianUs > 0 ? size / medianUs / 1e3 : Double.NaN;
        }
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
        // one rank moves nothing between GPUs (busbw 0): algbw against what the GPU can copy tells a person something
        boolean oneRank = !runs.isEmpty() && runs.stream().allMatch(r -> r.doc().nranks() == 1);
        Run judged = runs.isEmpty() ? null : runs.get(runs.size() - 1);
        Optional<CopyLimit> limit = oneRank ? copyLimit(judged.doc()) : Optional.empty();
        List<RunFacts.Fact> facts = judged == null ? List.of()
                : RunFacts.of(judged, gate == null ? null : gate.runFingerprint());
        return new ReportData(List.copyOf(curves), fabric, floor, latencyBelow, gate, findings, title, oneRank, limit,
                facts);
    }

    /** The judged (last) run's plotted point at a size: where the gate's marks go. */
    public Optional<Point> judgedPoint(String collective, long size) {
        for (int i = curves.size() - 1; i >= 0; i--) {
            Curve c = curves.get(i);
            if (!c.baseline() && c.collective().equals(collective)) {
                return c.points().stream().filter(p -> p.size() == size).findFirst();
            }
        }
        return Optional.empty();
    }

    /** The copy limit of the run's first GPU: NVML's figures when recorded, else its model's. */
    static Optional<CopyLimit> copyLimit(ResultDocument doc) {
        Map<String, String> v = doc.versions() == null ? Map.of() : doc.versions();
        String model = doc.ranks() == null || doc.ranks().isEmpty() ? v.get(HostVersions.GPU_MODEL)
                : doc.ranks().get(0).device();
        return CopyLimit.of(v.get(HostVersions.GPU_MEMORY_CLOCK_MHZ), v.get(HostVersions.GPU_MEMORY_BUS_WIDTH_BITS), model);
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
