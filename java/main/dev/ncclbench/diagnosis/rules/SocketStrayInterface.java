package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.RouteKind;
import dev.ncclbench.nccllog.NcclLogEvidence.Interface;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** NET/Socket spreads traffic over every matching interface, local bridges and loopback included. */
public final class SocketStrayInterface extends BaseRule<Facts> {
    public SocketStrayInterface() {
        super("SOCKET-STRAY-INTERFACE", Severity.WARNING,
                "NET/Socket includes a local bridge or loopback (docker, virbr, veth, br-, lo)");
    }

    @Override
    public List<Finding> check(Facts f) {
        List<Interface> stray = f.evidence().socketIfaces().stream().filter(i -> {
            String n = i.name();
            return n.startsWith("docker") || n.startsWith("virbr") || n.startsWith("veth") || n.startsWith("br-")
                    || n.startsWith("lo");
        }).toList();
        if (stray.isEmpty()) {
            return List.of();
        }
        boolean used = !f.socket().isEmpty() || f.path() == RouteKind.SOCKET;
        Set<String> names = new LinkedHashSet<>();
        stray.forEach(i -> names.add(i.name()));
        return List.of(finding(used ? Severity.WARNING : Severity.INFO,
                "NET/Socket includes " + String.join(", ", names) + ", a local bridge or loopback",
                "The socket transport spreads traffic over every interface that matches (up to 16), so a bridge"
                        + " that does not leave the host can carry, or stall, inter-node traffic."
                        + (used ? "" : " Sockets did not carry data in this log."),
                stray.stream().limit(4).map(i -> i.source() + ": NET/Socket uses " + i.name() + ":" + i.address())
                        .toList(),
                List.of("export NCCL_SOCKET_IFNAME=^docker,lo,virbr   # or name the data NIC exactly: =eth1"),
                References.ENV_DOC + "#nccl-socket-ifname"));
    }
}
