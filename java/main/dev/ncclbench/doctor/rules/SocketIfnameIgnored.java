package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** A one-character NCCL_SOCKET_IFNAME ("e", "^") is ignored by NCCL: the default order applies. */
public final class SocketIfnameIgnored extends BaseRule<HostEvidence> {
    public SocketIfnameIgnored() {
        super("SOCKET-IFNAME-IGNORED", Severity.WARNING,
                "NCCL_SOCKET_IFNAME is one character long, which NCCL ignores");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        return s.setting("NCCL_SOCKET_IFNAME").filter(v -> v.value().length() == 1)
                .map(v -> List.of(finding(Severity.WARNING, "NCCL_SOCKET_IFNAME=" + v.value() + " is ignored (NCCL reads values longer than one character)",
                        "NCCL treats it as unset and uses its default order, which is probably not what was meant.",
                        List.of(v.evidence()), List.of("export NCCL_SOCKET_IFNAME=" + SocketAdvice.bestValue(s)), References.ENV_DOC)))
                .orElse(List.of());
    }
}
