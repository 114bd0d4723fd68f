package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Rule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** NCCL_P2P_DISABLE=1 disables GPU peer-to-peer (NVLink, PCIe P2P) inside the node; NCCL disables it only for the exact value 1. */
public final class P2pDisabled implements Rule<HostSnapshot> {
    @Override
    public String id() {
        return "P2P-DISABLED";
    }

    @Override
    public Severity severity() {
        return Severity.WARNING;
    }

    @Override
    public String summary() {
        return "NCCL_P2P_DISABLE=1 disables GPU peer-to-peer (NVLink, PCIe P2P) inside the node";
    }

    @Override
    public List<Finding> check(HostSnapshot s) {
        var v = s.setting("NCCL_P2P_DISABLE");
        if (v.isEmpty()) {
            return List.of();
        }
        if (!v.get().value().equals("1")) {
            return List.of(finding(Severity.INFO, "NCCL_P2P_DISABLE=" + v.get().value() + " has no effect (only the value 1 disables)",
                    "Someone meant to change something here; NCCL does not.", List.of(v.get().evidence()),
                    List.of("unset NCCL_P2P_DISABLE"), References.ENV_DOC));
        }
        return List.of(finding(Severity.WARNING, "NCCL_P2P_DISABLE=1 disables GPU peer-to-peer (NVLink, PCIe P2P) inside the node",
                "With it, intra-node traffic goes through host shared memory (SHM) or the network: a debugging switch, rarely wanted in production.",
                List.of(v.get().evidence()), List.of("unset NCCL_P2P_DISABLE"), References.ENV_DOC));
    }
}
