package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.finding.References;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.List;

/** A peer went away mid-job: "Connection closed by remote peer", resets, proxy "Socket recv failed". */
public final class NetPeerLost extends FailureFamilyRule {
    public NetPeerLost() {
        super("NET-PEER-LOST",
                "a peer closed or reset its connection (socketProgress, proxy recv failed, remote process exited)");
    }

    @Override
    FailureKind kind() {
        return FailureKind.PEER_LOST;
    }

    @Override
    String title() {
        return "a peer closed or reset its connection: a rank died, or the network between them dropped";
    }

    @Override
    String detail(List<Warning> lines) {
        return "NCCL's socket or proxy read returned end-of-file or a reset (misc/socket.cc socketProgress, proxy.cc)."
                + " The rank it names is usually not the culprit: it is the one still alive to notice. Look at the"
                + " peer's log for its first WARN (an OOM, a CUDA error, a kill) before blaming the network.";
    }

    @Override
    List<String> remedy(Facts f, List<Warning> lines) {
        return List.of("read the peer's own log first: the earliest WARN across all ranks is the cause",
                "dmesg -T | grep -iE 'oom|killed process|nvrm|xid'   # on the peer's node",
                "ip -s link; ethtool -S <nic> | grep -iE 'drop|err'   # link flaps and drops between the nodes",
                "if it only happens at scale: check switch buffers, MTU and the NICs' error counters first");
    }

    @Override
    String reference() {
        return References.NET_DOC;
    }
}
