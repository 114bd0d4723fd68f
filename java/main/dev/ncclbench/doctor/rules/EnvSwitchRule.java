package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Severity;

import java.util.List;

/**
 * An NCCL debugging switch that turns a transport off: NCCL honours it only for the exact value 1, so any other
 * value is worth an INFO (someone meant to change something) and 1 a WARNING. One class, one instance per switch.
 */
final class EnvSwitchRule extends BaseRule<HostEvidence> {
    static final EnvSwitchRule P2P_DISABLED = new EnvSwitchRule("P2P-DISABLED", "NCCL_P2P_DISABLE",
            "disables GPU peer-to-peer (NVLink, PCIe P2P) inside the node",
            "With it, intra-node traffic goes through host shared memory (SHM) or the network: a debugging switch,"
                    + " rarely wanted in production.");
    static final EnvSwitchRule SHM_DISABLED = new EnvSwitchRule("SHM-DISABLED", "NCCL_SHM_DISABLE",
            "disables the shared-memory transport inside the node",
            "With it, GPUs without P2P talk over the network instead of host shared memory: a debugging switch,"
                    + " rarely wanted in production.");

    private final String variable;
    private final String detail;

    /** @param effect what the value 1 does, completing "VARIABLE=1 ..." (the summary and the WARNING's title) */
    private EnvSwitchRule(String id, String variable, String effect, String detail) {
        super(id, Severity.WARNING, variable + "=1 " + effect);
        this.variable = variable;
        this.detail = detail;
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        var v = s.setting(variable);
        if (v.isEmpty()) {
            return List.of();
        }
        if (!v.get().value().equals("1")) {
            return List.of(finding(Severity.INFO, variable + "=" + v.get().value()
                            + " has no effect (only the value 1 disables)",
                    "Someone meant to change something here; NCCL does not.", List.of(v.get().evidence()),
                    List.of("unset " + variable), References.ENV_DOC));
        }
        return List.of(finding(Severity.WARNING, summary(), detail, List.of(v.get().evidence()),
                List.of("unset " + variable), References.ENV_DOC));
    }
}
