package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.IbDevice;
import dev.ncclbench.doctor.snapshot.Nvidia;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.List;

/** NCCL_NET_GDR_LEVEL stricter than the GPU-NIC PCIe distance: GPUDirect RDMA is disabled for those GPUs. */
public final class GdrLevelTooStrict extends BaseRule<HostSnapshot> {
    public GdrLevelTooStrict() {
        super("GDR-LEVEL-TOO-STRICT", Severity.ERROR,
                "NCCL_NET_GDR_LEVEL is stricter than the GPU-NIC PCIe distance, so GPUDirect RDMA is disabled", true);
    }

    @Override
    public List<Finding> check(HostSnapshot s) {
        var set = s.setting("NCCL_NET_GDR_LEVEL");
        if (set.isEmpty()) {
            return List.of();
        }
        PciDistance level = PciDistance.parse(set.get().value());
        if (level == null) {
            return List.of(finding(Severity.WARNING, "NCCL_NET_GDR_LEVEL=" + set.get().value() + " is not LOC, PIX, PXB, PHB, SYS or 0-4",
                    "NCCL may ignore it or read it as a number.", List.of(set.get().evidence()), List.of("unset NCCL_NET_GDR_LEVEL"),
                    References.ENV_DOC));
        }
        List<String> blocked = new ArrayList<>();
        PciDistance worst = PciDistance.LOC;
        for (Nvidia.Gpu g : s.nvidia().gpus()) {
            PciDistance nearest = null;
            String nic = null;
            for (IbDevice d : s.ibDevices()) {
                if (g.pciPath() == null || d.pciPath() == null) {
                    continue;
                }
                PciDistance dist = PciDistance.between(g.pciPath(), d.pciPath());
                if (nearest == null || dist.compareTo(nearest) < 0) {
                    nearest = dist;
                    nic = d.name();
                }
            }
            if (nearest != null && nearest.compareTo(level) > 0) {
                blocked.add("GPU " + g.busId() + " -> " + nic + ": " + nearest);
                worst = nearest.compareTo(worst) > 0 ? nearest : worst;
            }
        }
        if (blocked.isEmpty()) {
            return List.of();
        }
        return List.of(finding(Severity.ERROR, "NCCL_NET_GDR_LEVEL=" + set.get().value() + " disables GPUDirect RDMA for "
                        + blocked.size() + " GPU(s): their nearest NIC is " + worst + " away",
                "NCCL uses GDR only when the GPU-NIC path is at most the level (LOC < PIX < PXB < PHB < SYS); a hand-set PIX on a"
                        + " node where NIC and GPU sit two switches apart disables it outright. Distances here are read from the PCI"
                        + " paths in /sys (NCCL_TOPO_DUMP_FILE shows NCCL's own).",
                concat(set.get().evidence(), blocked),
                List.of("unset NCCL_NET_GDR_LEVEL   # let NCCL choose", "export NCCL_NET_GDR_LEVEL=" + worst), References.RUNBOOK));
    }

    private static List<String> concat(String first, List<String> rest) {
        List<String> out = new ArrayList<>();
        out.add(first);
        out.addAll(rest);
        return out;
    }
}
