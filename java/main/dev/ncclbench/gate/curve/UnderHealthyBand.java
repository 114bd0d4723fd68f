package dev.ncclbench.gate.curve;

import dev.ncclbench.diagnosis.FabricEntry;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.List;

/** The largest sizes under the busbw a healthy path of the expected fabric reaches. */
final class UnderHealthyBand extends BaseRule<Curve> {
    public UnderHealthyBand() {
        super("CURVE-UNDER-HEALTHY", Severity.ERROR,
                "large-message busbw under the healthy band of the fabric in the catalog", true);
    }

    @Override
    public List<Finding> check(Curve c) {
        FabricEntry f = c.applicableFabric().orElse(null);
        if (f == null) {
            return List.of();
        }
        List<Finding> out = new ArrayList<>();
        c.byCollective().forEach((coll, points) -> {
            List<Curve.Point> large = points.stream().filter(p -> p.size() >= Curve.LARGE_BYTES).toList();
            if (large.isEmpty()) {
                return; // the sweep never left the latency-bound sizes: nothing to judge the path by
            }
            double peak = large.stream().mapToDouble(Curve.Point::busbw).max().orElse(0);
            if (peak < f.healthyMinGBps()) {
                out.add(finding(Severity.ERROR, Curve.fmt("%s busbw peaks at %.2f GB/s, under the %.2f GB/s a"
                                + " healthy %s path reaches", coll, peak, f.healthyMinGBps(), f.id()),
                        Curve.fmt("at %s busbw is %.0f%% of the %.2f GB/s line rate; healthy is %.0f-%.0f%%",
                                Curve.sizes(large), peak / f.lineGBps() * 100, f.lineGBps(), f.healthyMin() * 100,
                                f.healthyMax() * 100),
                        large.stream().map(p -> Curve.fmt("busbw %.3f GB/s at %d B", p.busbw(), p.size())).toList(),
                        List.of("ncclbench explain <run folder>", "compare with a baseline: ncclbench gate RUN.json"),
                        References.NCCLBENCH));
            }
        });
        return out;
    }
}
