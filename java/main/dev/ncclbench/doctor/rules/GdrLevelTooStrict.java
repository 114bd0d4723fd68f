package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.NicPort;
import dev.ncclbench.doctor.predict.PathType;
import dev.ncclbench.doctor.predict.Rail;
import dev.ncclbench.doctor.predict.RailTable;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.List;

/** NCCL_NET_GDR_LEVEL stricter than the GPU-NIC PCIe distance: GPUDirect RDMA is disabled for those GPUs. */
public final class GdrLevelTooStrict extends BaseRule<HostEvidence> {
    public GdrLevelTooStrict() {
        super("GDR-LEVEL-TOO-STRICT", Severity.ERROR,
                "NCCL_NET_GDR_LEVEL is stricter than the GPU-NIC PCIe distance, so GPUDirect RDMA is disabled", true);
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        var set = s.setting("NCCL_NET_GDR_LEVEL");
        if (set.isEmpty()) {
            return List.of();
        }
        PathType level = PathType.parseLevel(set.get().value());
        if (level == null) {
            return List.of(finding(Severity.WARNING, "NCCL_NET_GDR_LEVEL=" + set.get().value() + " is not LOC, PIX, PXB, PHB, SYS or 0-4",
                    "NCCL may ignore it or read it as a number.", List.of(set.get().evidence()), List.of("unset NCCL_NET_GDR_LEVEL"),
                    References.ENV_DOC));
        }
        List<String> blocked = new ArrayList<>();
        PathType worst = PathType.LOC;
        RailTable table = host.rails();
        for (Rail r : table.rails()) {
            if (NicPort.IB.equals(table.transport()) && r.distance() != null && r.distance().compareTo(level) > 0) {
                blocked.add("GPU " + r.gpu().busId() + " -> " + r.nic() + ": " + r.distance());
                worst = r.distance().compareTo(worst) > 0 ? r.distance() : worst;
            }
        }
        if (blocked.isEmpty()) {
            return List.of();
        }
        return List.of(finding(Severity.ERROR, "NCCL_NET_GDR_LEVEL=" + set.get().value() + " disables GPUDirect RDMA for "
                        + blocked.size() + " GPU(s): their nearest NIC is " + worst + " away",
                "NCCL uses GDR only when the GPU-NIC path is at most the level (LOC < PIX < PXB < PHB < SYS); a hand-set PIX on a"
                        + " node where NIC and GPU sit two switches apart disables it outright. Distances here are NCCL's, rebuilt"
                        + " from the PCI paths in /sys as its topology does (NCCL_TOPO_DUMP_FILE shows NCCL's own).",
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
