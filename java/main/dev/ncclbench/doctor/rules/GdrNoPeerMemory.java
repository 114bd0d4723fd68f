package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** GPUs and RDMA devices, but neither peer memory nor DMA-BUF: NCCL's RDMA stages through host memory. */
public final class GdrNoPeerMemory extends BaseRule<HostEvidence> {
    public GdrNoPeerMemory() {
        super("GDR-NO-PEER-MEMORY", Severity.ERROR,
                "no nvidia_peermem / nv_peer_mem and DMA-BUF's prerequisites unmet: GPUDirect RDMA is off (host-staged)", true);
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        if (s.ibDevices().isEmpty() || s.nvidia().gpus().isEmpty() || s.nvidia().peerMem() != null) {
            return List.of();
        }
        List<String> unmet = GpuDirect.dmaBufUnmet(s);
        if (unmet.isEmpty()) {
            return List.of();
        }
        return List.of(finding(Severity.ERROR, "no peer memory module and no DMA-BUF (" + String.join("; ", unmet)
                        + "): GPUDirect RDMA is off, RDMA stages through host memory",
                "NCCL needs nvidia_peermem (or nv_peer_mem) or DMA-BUF to let the NIC read GPU memory; without either, every"
                        + " transfer is copied through host memory (NET/IB without /GDRDMA), up to about half the bandwidth.",
                List.of(s.nvidia().peerMemEvidence(), "DMA-BUF: " + String.join("; ", unmet)),
                List.of("modprobe nvidia_peermem   # the legacy path", "lsmod | grep nvidia_peermem; dmesg | grep -i nvidia_peermem",
                        "or use the open kernel module driver (DMA-BUF, kernel >= 5.12, CUDA >= 11.7)"),
                References.RUNBOOK));
    }
}
