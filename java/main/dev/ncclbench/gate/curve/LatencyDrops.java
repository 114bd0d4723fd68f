package dev.ncclbench.gate.curve;

import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.List;

/** A larger message finishing faster than a smaller one: the small sizes carry warm-up cost or noise. */
final class LatencyDrops extends BaseRule<Curve> {
    /** A drop is a time under this fraction of the slowest smaller size... */
    static final double DROP = 0.67;
    /**
     * ...and the time it stands for, the drop times -n, at least this many microseconds. On a healthy H200 the first
     * size of a pass pays a first launch of 55-65 us once (21.9 then 10.9 us at -n 5, 29.8 then 9.8 at -n 3, 8.5 then
     * 5.5 at -n 20: gpu-runs/h200-2026-12-04), which the mean of few iterations shows as a drop that teaches nothing;
     * connection set-up paid in the timed loop, what this rule is for, costs milliseconds (160 us an iteration in the
     * cold-start fixture).
     */
    static final double MIN_COST_US = 100;

    public LatencyDrops() {
        super("CURVE-LATENCY-DROP", Severity.WARNING,
                "latency falls by more than a third (over 100 us in all) as size grows: small sizes measured with warm-up cost or noise");
    }

    @Override
    public List<Finding> check(Curve c) {
        List<Finding> out = new ArrayList<>();
        if (c.hostOnly()) {
            return out; // an idle 2-core VM, 4 ranks on loopback: 139 us at 32 B, 61 at 512 B: CPUs waking, not a path
        }
        c.byCollective().forEach((coll, points) -> {
            double worst = 0;
            Curve.Point worstAt = null;
            List<Curve.Point> drops = new ArrayList<>();
            List<String> evidence = new ArrayList<>();
            for (Curve.Point p : points) {
                if (worstAt != null && p.medianUs() < worst * DROP && (worst - p.medianUs()) * c.iters() >= MIN_COST_US) {
                    drops.add(p);
                    evidence.add(Curve.fmt("%.1f us at %d B after %.1f us at %d B", p.medianUs(), p.size(), worst,
                            worstAt.size()));
                }
                if (p.medianUs() > worst) {
                    worst = p.medianUs();
                    worstAt = p;
                }
            }
            if (!drops.isEmpty()) {
                out.add(finding(Severity.WARNING, coll + " latency drops as size grows at " + Curve.sizes(drops),
                        "a larger message cannot take less time than a smaller one on the same path: the smaller"
                                + " sizes paid for warm-up, connection set-up or a busy host",
                        evidence, List.of("raise -w (warm-up iterations) and -n", "run on an idle node"),
                        References.NCCLBENCH));
            }
        });
        return out;
    }
}
