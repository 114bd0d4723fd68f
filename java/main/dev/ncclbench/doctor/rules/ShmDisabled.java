package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Rule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** NCCL_SHM_DISABLE=1 disables the shared-memory transport inside the node; NCCL disables it only for the exact value 1. */
public final class ShmDisabled implements Rule<HostSnapshot> {
    @Override
    public String id() {
        return "SHM-DISABLED";
    }

    @Override
    public Severity severity() {
        return Severity.WARNING;
    }

    @Override
    public String summary() {
        return "NCCL_SHM_DISABLE=1 disables the shared-memory transport inside the node";
    }

    @Override
    public List<Finding> check(HostSnapshot s) {
        var v = s.setting("NCCL_SHM_DISABLE");
        if (v.isEmpty()) {
            return List.of();
        }
        if (!v.get().value().equals("1")) {
            return List.of(finding(Severity.INFO, "NCCL_SHM_DISABLE=" + v.get().value() + " has no effect (only the value 1 disables)",
                    "Someone meant to change something here; NCCL does not.", List.of(v.get().evidence()),
                    List.of("unset NCCL_SHM_DISABLE"), References.ENV_DOC));
        }
        return List.of(finding(Severity.WARNING, "NCCL_SHM_DISABLE=1 disables the shared-memory transport inside the node",
                "With it, GPUs without P2P talk over the network instead of host shared memory: a debugging switch, rarely wanted in production.",
                List.of(v.get().evidence()), List.of("unset NCCL_SHM_DISABLE"), References.ENV_DOC));
    }
}
