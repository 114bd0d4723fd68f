package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** NCCL_NET=Socket forces the TCP transport even where RDMA is present. */
public final class NetForcedSocket extends BaseRule<HostEvidence> {
    public NetForcedSocket() {
        super("NET-FORCED-SOCKET", Severity.ERROR,
                "NCCL_NET=Socket forces TCP sockets even where an RDMA device is usable", true);
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        if (!HostFacts.netForcedSocket(s)) {
            return List.of();
        }
        HostSnapshot.Setting v = s.setting("NCCL_NET").orElseThrow();
        List<String> active = HostFacts.activePorts(s);
        Severity sev = active.isEmpty() ? Severity.INFO : Severity.ERROR;
        return List.of(finding(sev, "NCCL_NET=" + v.value() + " forces the socket transport"
                        + (active.isEmpty() ? " (no active RDMA port here anyway)" : " although " + active + " are active"),
                "NCCL uses exactly the network named; with Socket every inter-node byte goes over TCP.",
                List.of(v.evidence(), "active RDMA ports: " + active), List.of("unset NCCL_NET"), References.ENV_DOC));
    }
}
