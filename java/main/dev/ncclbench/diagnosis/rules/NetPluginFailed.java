package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.diagnosis.facts.RouteKind;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.nccllog.NcclLogEvidence.Mention;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.ArrayList;
import java.util.List;

/** A NET plugin (NET/OFI, TCPX, FasTrak...) failed, and what NCCL used instead. */
public final class NetPluginFailed extends FailureFamilyRule {
    public NetPluginFailed() {
        super("NET-PLUGIN-FAILED",
                "a NET plugin (NET/OFI, GPUDirectTCPX, FasTrak, IBext) failed to initialise or failed, and what NCCL"
                + " fell back to", true);
    }

    /** A plugin that failed at init and left NCCL on sockets between nodes degrades the path: an ERROR. */
    @Override
    public List<Finding> check(Facts f) {
        List<Finding> out = super.check(f);
        if (out.isEmpty() || out.get(0).severity() == Severity.ERROR || f.path() != RouteKind.SOCKET) {
            return out;
        }
        Finding w = out.get(0);
        return List.of(finding(Severity.ERROR, "a NET plugin failed at init and NCCL fell back to TCP sockets",
                w.detail(), w.evidence(), w.remedy(), w.reference()));
    }

    @Override
    FailureKind kind() {
        return FailureKind.PLUGIN;
    }

    @Override
    String title() {
        return "a NET plugin failed";
    }

    @Override
    String detail(List<Warning> lines) {
        return "The network plugin NCCL loaded (libnccl-net*.so) reported an error. When it fails at init NCCL"
                + " falls back to its internal IB or Socket transport, so a job that should run on EFA, TCPX or"
                + " SHARP runs on sockets instead; when it only warned, NCCL went on over it (the network NCCL then"
                + " used is below).";
    }

    @Override
    List<String> remedy(Facts f, List<Warning> lines) {
        List<String> r = new ArrayList<>();
        f.evidence().networks().stream().filter(m -> m.kind().equals("network")).map(Mention::value).findFirst()
                .ifPresent(n -> r.add("NCCL then used network " + n + ": compare busbw with what the plugin's fabric"
                        + " should give"));
        r.add("NCCL_DEBUG_SUBSYS=INIT,NET: the plugin's own lines before the failure say what it missed");
        r.add("EFA: fi_info -p efa; FI_EFA_USE_DEVICE_RDMA=1; the aws-ofi-nccl version must match NCCL's");
        r.add("TCPX/FasTrak: the rxdm daemon and its socket path, the dma-buf setup, NCCL_GPUDIRECTTCPX_* settings");
        r.add("export NCCL_NET_PLUGIN=none   # to prove the rest works without the plugin");
        return r;
    }

    @Override
    String reference() {
        return References.NET_DOC;
    }
}
