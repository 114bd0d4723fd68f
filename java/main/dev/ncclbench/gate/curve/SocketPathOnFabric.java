package dev.ncclbench.gate.curve;

import dev.ncclbench.diagnosis.FabricEntry;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Severity;

import java.util.List;

/**
 * A socket-backend run judged under a fabric whose healthy path is not sockets (--fabric ib-hdr, nvlink4): the bytes
 * took TCP, which is the degraded path whatever the sizes, so the run cannot pass against that fabric. Without this
 * a socket run of a few MiB (under the sizes the band is judged at) passed "--fabric ib-hdr" at 40x under the band.
 */
final class SocketPathOnFabric extends BaseRule<Curve> {
    SocketPathOnFabric() {
        super("CURVE-SOCKET-PATH", Severity.ERROR,
                "a socket-backend run under a fabric whose healthy path is RDMA, P2P or NVLS", true);
    }

    @Override
    public List<Finding> check(Curve c) {
        FabricEntry f = c.applicableFabric().orElse(null);
        if (!c.socketRun() || f == null || f.socketPath()) {
            return List.of();
        }
        double peak = c.byCollective().values().stream().flatMap(List::stream).mapToDouble(Curve.Point::busbw)
                .filter(Double::isFinite).max().orElse(Double.NaN);
        return List.of(finding(Severity.ERROR, "the run went over TCP sockets (socket backend), not the " + f.path()
                        + " path a healthy " + f.id() + " job takes",
                Curve.fmt("busbw peaks at %.3f GB/s; a healthy %s path reaches %.1f GB/s (%.0f%% of its %.1f GB/s line"
                        + " rate)", peak, f.id(), f.healthyMinGBps(), f.healthyMin() * 100, f.lineGBps()),
                List.of("backend socket", "fabric " + f.id() + ": path " + f.path()),
                List.of("run with --backend nccl on the GPUs, or name the fabric the job really uses (--fabric eth-*)"),
                References.NCCLBENCH));
    }
}
