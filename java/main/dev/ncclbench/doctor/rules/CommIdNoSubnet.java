package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.InterfacePredictor;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** NCCL_COMM_ID names an address no local interface shares a subnet with: bootstrap has nothing to bind. */
public final class CommIdNoSubnet extends BaseRule<HostEvidence> {
    public CommIdNoSubnet() {
        super("COMM-ID-NO-SUBNET", Severity.ERROR,
                "NCCL_COMM_ID's address is in no local interface's subnet, so bootstrap finds no interface");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        var id = s.setting("NCCL_COMM_ID");
        if (id.isEmpty() || !InterfacePredictor.predict(s).bootstrapFails()) {
            return List.of();
        }
        return List.of(finding(Severity.ERROR, "NCCL_COMM_ID=" + id.get().value() + " is in no local interface's subnet",
                "With NCCL_COMM_ID set, bootstrap binds the interface in that address's subnet and ignores NCCL_SOCKET_IFNAME.",
                List.of(id.get().evidence()), List.of("set NCCL_COMM_ID to rank 0's address on the network the nodes share"),
                References.ENV_DOC));
    }
}
