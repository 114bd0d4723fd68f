package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Rule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.diagnosis.facts.Lines;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.List;

/** A socket connection between ranks was refused, reset or timed out. */
public final class NetConnectionFailure implements Rule<Facts> {
    @Override
    public String id() {
        return "NET-CONNECTION-FAILURE";
    }

    @Override
    public Severity severity() {
        return Severity.ERROR;
    }

    @Override
    public String summary() {
        return "a socket connection between ranks was refused, reset or timed out";
    }

    @Override
    public List<Finding> check(Facts f) {
        List<Warning> ws = f.failures(FailureKind.CONNECTION);
        if (ws.isEmpty()) {
            return List.of();
        }
        return List.of(finding(Severity.ERROR,
                "a socket connection between ranks was refused, reset or timed out",
                "Ranks could not reach each other over the interface NCCL chose. Usually a firewall, a different"
                        + " NCCL_SOCKET_IFNAME on some nodes, an interface that is not routable between nodes, or a"
                        + " rank that died first (read the earliest WARN).",
                Lines.warnings(ws),
                List.of("compare the Bootstrap/NET/Socket interface lines of every host: they must be on one"
                                + " routable network", "nc -zv <peer address> <port>   # from the WARN line",
                        "check firewalls (iptables -L, security groups) between the nodes",
                        "export NCCL_SOCKET_IFNAME=<the data network interface> on every node"), References.NET_DOC));
    }
}
