package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.InterfacePredictor;
import dev.ncclbench.doctor.predict.LinkRates;
import dev.ncclbench.doctor.predict.Prediction;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;
import java.util.Optional;

/**
 * The seed case: NCCL_SOCKET_IFNAME unset on a multi-homed host, and NCCL's order (kernel order after ib*) puts the
 * slow management NIC first. Without usable RDMA the whole job runs on it.
 */
public final class SocketDefaultSlowNic extends BaseRule<HostEvidence> {
    public SocketDefaultSlowNic() {
        super("SOCKET-DEFAULT-SLOW-NIC", Severity.ERROR,
                "NCCL_SOCKET_IFNAME unset on a multi-homed host: NCCL's default order picks a slower NIC than the fastest", true);
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        Optional<HostSnapshot.Setting> set = s.setting("NCCL_SOCKET_IFNAME");
        if (set.isPresent() && set.get().value().length() > 1 || HostFacts.usable(s).size() < 2) {
            return List.of();
        }
        Optional<HostFacts.Usable> fast = HostFacts.fastest(s);
        Prediction p = InterfacePredictor.predict(s);
        if (fast.isEmpty() || p.bootstrapFails()) {
            return List.of();
        }
        String picked = p.bootstrap().iface();
        Optional<LinkRates.Rate> rate = LinkRates.of(s, picked);
        if (picked.equals(fast.get().name()) || rate.isEmpty() || rate.get().gbps() >= fast.get().gbps()) {
            return List.of();
        }
        boolean rdma = HostFacts.rdmaUsable(s);
        Severity sev = rdma ? Severity.WARNING : Severity.ERROR;
        String detail = rdma
                ? "NCCL's IB transport carries the data, but bootstrap and the out-of-band socket use " + picked
                        + "; should IB fail, NCCL falls back to sockets on " + picked + " at its rate."
                : "No usable RDMA device here, so NET/Socket carries the data: NCCL uses " + socketNames(p)
                        + " and busbw is capped near " + rate.get().text() + " instead of " + fast.get().rate().get().text()
                        + " (the seed: 1.1 GB/s on 10 GbE instead of 10.8 on rdma0).";
        boolean ipoib = s.link(fast.get().name()).map(l -> "infiniband".equals(l.type())).orElse(false);
        if (ipoib && !fast.get().name().startsWith("ib")) {
            detail += " " + fast.get().name() + " is IPoIB but not named ib*, so NCCL's ib-first rule passes it over.";
        }
        return List.of(finding(sev, "NCCL_SOCKET_IFNAME is unset and NCCL will pick " + picked + " (" + rate.get().text()
                        + ") over " + fast.get().name() + " (" + fast.get().rate().get().text() + "): set NCCL_SOCKET_IFNAME=" + fast.get().name(),
                detail,
                List.of("NCCL_SOCKET_IFNAME: unset", "predicted bootstrap: " + picked + " (" + p.bootstrap().why() + ")",
                        picked + ": " + rate.get().text() + " (" + rate.get().source() + ")",
                        fast.get().name() + ": " + fast.get().rate().get().text() + " (" + fast.get().rate().get().source() + ")"),
                List.of("export NCCL_SOCKET_IFNAME=" + fast.get().name(), "# or exclude the slow one: export NCCL_SOCKET_IFNAME=^=" + picked),
                References.RUNBOOK));
    }

    private static String socketNames(Prediction p) {
        return String.join(", ", p.socketInterfaces().stream().map(Prediction.Endpoint::iface).toList());
    }
}
