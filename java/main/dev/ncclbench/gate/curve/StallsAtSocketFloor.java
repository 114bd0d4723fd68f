package dev.ncclbench.gate.curve;

import dev.ncclbench.diagnosis.FabricEntry;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.List;

/** Large sizes stuck at what TCP sockets reach, on a fabric that should do RDMA, P2P or NVLS. */
final class StallsAtSocketFloor extends BaseRule<Curve> {
    /** busbw within this factor of the socket floor is what sockets reach (as RouteClassifier judges it). */
    static final double MARGIN = 1.25;

    public StallsAtSocketFloor() {
        super("CURVE-SOCKET-FLOOR", Severity.ERROR,
                "large-message busbw stalls at the socket floor on a fabric that should do better", true);
    }

    @Override
    public List<Finding> check(Curve c) {
        FabricEntry f = c.applicableFabric().orElse(null);
        if (f == null || f.socketPath() || c.socketFloor().isEmpty()) {
            return List.of();
        }
        double floor = c.socketFloor().getAsDouble();
        List<Finding> out = new ArrayList<>();
        c.byCollective().forEach((coll, points) -> {
            List<Curve.Point> stalled = points.stream().filter(p -> p.size() >= Curve.LARGE_BYTES
                    && p.busbw() <= floor * MARGIN).toList();
            if (!stalled.isEmpty()) {
                Curve.Point last = stalled.get(stalled.size() - 1);
                out.add(finding(Severity.ERROR, coll + " busbw stalls at the socket floor at " + Curve.sizes(stalled),
                        Curve.fmt("busbw %.2f GB/s at %s is within %.0f%% of the %.2f GB/s sockets reach on this"
                                + " interface; a healthy %s path reaches %.1f GB/s", last.busbw(), last.sizeText(),
                                (MARGIN - 1) * 100, floor, f.id(), f.healthyMinGBps()),
                        stalled.stream().map(p -> Curve.fmt("busbw %.3f GB/s at %d B", p.busbw(), p.size())).toList(),
                        List.of("ncclbench explain <run folder>: the NCCL log says which transport was used",
                                "check NCCL_IB_DISABLE, NCCL_NET and NCCL_SOCKET_IFNAME"), References.NCCLBENCH));
            }
        });
        return out;
    }
}
