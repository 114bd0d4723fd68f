package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** NCCL_IB_DISABLE non-zero, often copied from a laptop or dev config and never removed: NCCL uses sockets. */
public final class IbDisabled extends BaseRule<HostEvidence> {
    public IbDisabled() {
        super("IB-DISABLED", Severity.ERROR,
                "NCCL_IB_DISABLE is set (non-zero): NCCL ignores every RDMA device and falls back to sockets", true);
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        if (!HostFacts.ibDisabled(s)) {
            return List.of();
        }
        HostSnapshot.Setting v = s.setting("NCCL_IB_DISABLE").orElseThrow();
        boolean devices = !s.ibDevices().isEmpty();
        String where = v.source().equals("environment") ? "unset NCCL_IB_DISABLE   # and remove it from the launch template"
                : "remove the NCCL_IB_DISABLE line from " + v.source();
        return List.of(finding(devices ? Severity.ERROR : Severity.WARNING,
                "NCCL_IB_DISABLE=" + v.value() + " (" + v.source() + ") disables "
                        + (devices ? s.ibDevices().size() + " RDMA device(s): NCCL will use sockets" : "IB; this host has no RDMA device anyway"),
                "The runbook's laptop-copied setting: NCCL_IB_DISABLE non-zero makes NCCL skip the IB transport entirely, so"
                        + " inter-node data goes over TCP sockets (NET/Socket) at a fraction of line rate.",
                List.of(v.evidence(), "RDMA devices: " + (devices ? s.ibDevices().stream().map(d -> d.name()).toList() : "none")),
                List.of(where), References.RUNBOOK));
    }
}
