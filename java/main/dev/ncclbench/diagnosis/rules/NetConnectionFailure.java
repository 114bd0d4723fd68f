package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.finding.References;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.List;

/** A connection between ranks could not be made: refused, timed out, unreachable, bootstrap timeouts. */
public final class NetConnectionFailure extends FailureFamilyRule {
    public NetConnectionFailure() {
        super("NET-CONNECTION-FAILURE",
                "a socket connection between ranks was refused, timed out or unreachable (bootstrap, proxy, NET/Socket)");
    }

    @Override
    FailureKind kind() {
        return FailureKind.CONNECT;
    }

    @Override
    String title() {
        return "a socket connection between ranks was refused, reset or timed out";
    }

    @Override
    String detail(List<Warning> lines) {
        return "Ranks could not reach each other over the interface NCCL chose. Usually a firewall, a different"
                + " NCCL_SOCKET_IFNAME on some nodes, an interface that is not routable between nodes, or a"
                + " rank that died first (read the earliest WARN).";
    }

    @Override
    List<String> remedy(Facts f, List<Warning> lines) {
        return List.of("compare the Bootstrap/NET/Socket interface lines of every host: they must be on one"
                        + " routable network", "nc -zv <peer address> <port>   # from the WARN line",
                "check firewalls (iptables -L, security groups) between the nodes",
                "export NCCL_SOCKET_IFNAME=<the data network interface> on every node");
    }

    @Override
    String reference() {
        return References.NET_DOC;
    }
}
