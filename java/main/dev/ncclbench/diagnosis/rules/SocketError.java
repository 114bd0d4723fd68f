package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.finding.References;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.List;

/** Socket set-up errors: address family, address lookups, no interface in the subnet of NCCL_COMM_ID. */
public final class SocketError extends FailureFamilyRule {
    public SocketError() {
        super("SOCKET-ERROR",
                "a socket could not be set up (ncclSocketInit address family, address lookup, no interface in the subnet)");
    }

    @Override
    FailureKind kind() {
        return FailureKind.SOCKET;
    }

    @Override
    String title() {
        return "NCCL could not set up a socket";
    }

    @Override
    String detail(List<Warning> lines) {
        return "misc/socket.cc rejected an address: an IPv4/IPv6 mismatch between the peers (NCCL_SOCKET_FAMILY), a"
                + " NCCL_COMM_ID that does not parse or resolve, or no local interface in the subnet of the address"
                + " NCCL must reach.";
    }

    @Override
    List<String> remedy(Facts f, List<Warning> lines) {
        return List.of("export NCCL_SOCKET_FAMILY=AF_INET   # or AF_INET6: the same on every node",
                "NCCL_COMM_ID=<ip>:<port> must be an address this host can reach, in the subnet of one of its interfaces",
                "ip -br addr   # the interfaces and their subnets");
    }

    @Override
    String reference() {
        return References.ENV_DOC + "#nccl-socket-family";
    }
}
