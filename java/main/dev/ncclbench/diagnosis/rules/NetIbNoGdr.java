package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.nccllog.Networks;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.Lines;
import dev.ncclbench.diagnosis.facts.RouteKind;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;
import dev.ncclbench.nccllog.NcclLogEvidence.EnvSetting;
import dev.ncclbench.nccllog.NcclLogEvidence.GdrStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The second seed story: RDMA carries the bytes, but every transfer bounces through host memory. */
public final class NetIbNoGdr extends BaseRule<Facts> {
    public NetIbNoGdr() {
        super("NET-IB-NO-GDR", Severity.ERROR,
                "RDMA is up but GPUDirect RDMA is off: data is staged through host memory", true);
    }

    @Override
    public List<Finding> check(Facts f) {
        List<Connection> noGdr = f.ib().stream().filter(c -> !c.gdr()).toList();
        // NET/Socket's "GPU Direct RDMA Disabled for HCA 0 'eth0'" (2.12+) is about a TCP NIC: sockets never do GDR
        List<GdrStatus> disabled = f.evidence().gdr().stream().filter(g -> !g.enabled()
                && !Networks.isSocket(g.network())).toList();
        boolean allNoGdr = !f.ib().isEmpty() && noGdr.size() == f.ib().size();
        boolean noLinesButDisabled = f.ib().isEmpty() && !disabled.isEmpty()
                && (f.path() == RouteKind.RDMA || f.path() == RouteKind.RDMA_HOST_STAGED || f.path() == RouteKind.UNKNOWN);
        if (!allNoGdr && !noLinesButDisabled) {
            return List.of();
        }
        List<String> ev = new ArrayList<>(Lines.describe(noGdr, 4));
        disabled.stream().limit(4).forEach(g -> ev.add(g.source() + ": " + g.text()));
        List<String> remedy = new ArrayList<>();
        remedy.add("lsmod | grep -E 'nvidia_peermem|nv_peer_mem'   # GDR needs it, or DMA-BUF; sudo modprobe"
                + " nvidia_peermem");
        remedy.add("DMA-BUF instead: open kernel module driver, CUDA >= 11.7, kernel >= 5.12 (uname -r;"
                + " cat /proc/driver/nvidia/version)");
        remedy.add("sudo lspci -vvv | grep -E 'ReqRedir\\+|CmpltRedir\\+|UpstreamFwd\\+|SrcValid\\+'   # ACS on a"
                + " bridge between NIC and GPU: disable ACS");
        Optional<EnvSetting> level = f.env("NCCL_NET_GDR_LEVEL");
        if (level.isPresent()) {
            remedy.add("unset NCCL_NET_GDR_LEVEL   # " + level.get().value() + " at " + level.get().source()
                    + " may be stricter than the GPU-NIC distance (LOC PIX PXB PHB SYS)");
        } else {
            remedy.add("nvidia-smi topo -m   # GPU-NIC distance; beyond PXB NCCL disables GDR unless"
                    + " NCCL_NET_GDR_LEVEL=PHB (or SYS) is set");
        }
        if (f.evidence().netDevices().stream().anyMatch(d -> d.linkLayer().equalsIgnoreCase("RoCE"))) {
            remedy.add("show_gids on host and in the container: a different GID table blocks GPUDirect");
        }
        remedy.add("verify: [send] and [receive] lines end in /GDRDMA on every node");
        return List.of(finding(Severity.ERROR,
                "RDMA is up but GPUDirect RDMA is off: data is staged through host memory",
                "The IB/RoCE transport carries the bytes, but without /GDRDMA every transfer bounces through a host"
                        + " buffer. Depending on the PCIe layout this costs 0% to about 50% of busbw.",
                ev, remedy, References.RUNBOOK + "; " + References.ENV_DOC
                        + "#nccl-net-gdr-level-formerly-nccl-ib-gdr-level"));
    }
}
