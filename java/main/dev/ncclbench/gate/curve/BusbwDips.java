package dev.ncclbench.gate.curve;

import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.List;

/** busbw falling as size grows, once the curve is bandwidth-bound: a protocol switch, a queue, a flaky link. */
final class BusbwDips extends BaseRule<Curve> {
    /** A dip is a fall under this fraction of the best busbw at any smaller size. */
    static final double DIP = 0.75;
    /** Bandwidth-bound: from the first size that reaches this fraction of the curve's peak. */
    static final double BOUND = 0.5;

    public BusbwDips() {
        super("CURVE-DIP", Severity.WARNING, "busbw falls by more than 25% as size grows in the bandwidth-bound sizes");
    }

    @Override
    public List<Finding> check(Curve c) {
        List<Finding> out = new ArrayList<>();
        if (c.hostOnly()) {
            return out; // 4 ranks on loopback: 0.8 GB/s at 1 MiB, 0.2 from 8 MiB on a 2-core VM, the caches' curve
        }
        c.byCollective().forEach((coll, points) -> {
            double peak = points.stream().mapToDouble(Curve.Point::busbw).filter(Double::isFinite).max().orElse(0);
            if (!(peak > 0)) {
                return;
            }
            double best = 0;
            boolean bound = false;
            List<Curve.Point> dips = new ArrayList<>();
            List<String> evidence = new ArrayList<>();
            for (Curve.Point p : points) {
                bound |= p.busbw() >= peak * BOUND;
                if (bound && p.busbw() < best * DIP) {
                    dips.add(p);
                    evidence.add(Curve.fmt("busbw %.3f GB/s at %d B after %.3f GB/s at a smaller size", p.busbw(),
                            p.size(), best));
                }
                best = Math.max(best, Double.isFinite(p.busbw()) ? p.busbw() : 0);
            }
            if (!dips.isEmpty()) {
                out.add(finding(Severity.WARNING, coll + " busbw dips as size grows at " + Curve.sizes(dips),
                        "busbw should rise with size and then level off; falling by more than "
                                + Math.round((1 - DIP) * 100) + "% means something slowed the larger sizes (a"
                                + " protocol or algorithm switch, a congested queue, a link retraining, or a busy host)",
                        evidence, List.of("rerun with -N 3 to see whether the dip repeats",
                                "NCCL_ALGO / NCCL_PROTO pin the algorithm to rule out a switch"), References.NCCLBENCH));
            }
        });
        return out;
    }
}
