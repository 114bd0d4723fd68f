package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.NicPort;
import dev.ncclbench.doctor.predict.PathType;
import dev.ncclbench.doctor.predict.Rail;
import dev.ncclbench.doctor.predict.RailVerdict;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Severity;

import java.util.List;

/**
 * A GPU whose nearest NIC is across the CPU sockets (SYS), or a node with GPUs and no NIC at all (INFO: a single node
 * needs none; a job across nodes cannot start).
 */
public final class RailNoNicNear extends RailRule {
    public RailNoNicNear() {
        super("RAIL-NO-NIC-NEAR", Severity.WARNING, "a GPU's nearest NIC is across the CPU sockets (SYS), or there is no"
                + " NIC at all", RailVerdict.NO_NIC_NEAR);
    }

    @Override
    Severity severity(Rail rail, Rail.Problem problem) {
        return rail.ports().isEmpty() ? Severity.INFO : Severity.WARNING;
    }

    @Override
    String detail(Rail rail, Rail.Problem problem, NicPort port) {
        if (rail.ports().isEmpty()) {
            return "Within one node NCCL needs no NIC (NVLink, PCIe, shared memory); across nodes the GPU's traffic has"
                    + " nowhere to go and the job cannot start.";
        }
        if (rail.distance() != PathType.SYS) {
            return "The GPU's traffic goes through the CPU to NICs that already carry other rails (or over NVLink to their"
                    + " GPUs, PXN), with GPUDirect RDMA off beyond NCCL_NET_GDR_LEVEL (default PXB): those NICs carry two"
                    + " rails' traffic and every collective that crosses the network runs at their pace.";
        }
        return "NCCL turns GPUDirect RDMA off beyond NCCL_NET_GDR_LEVEL (default PXB), so the GPU's data is staged"
                + " through host memory on the far socket and crosses the inter-socket link both ways: lower bandwidth and"
                + " more CPU load than a NIC on the GPU's own switch.";
    }

    @Override
    List<String> remedy(HostSnapshot s, Rail rail, Rail.Problem problem, NicPort port) {
        if (rail.ports().isEmpty()) {
            return List.of("lspci | grep -i -e mellanox -e infiniband -e ethernet   # a NIC missing from the bus",
                    "ibv_devices   # the RDMA devices the verbs layer sees");
        }
        if (rail.distance() != PathType.SYS) {
            return List.of("lspci | grep -i -e mellanox -e infiniband   # is this GPU's NIC on the bus?",
                    "nvidia-smi topo -m   # the GPU-NIC matrix: expect PIX or PXB for every GPU",
                    "reseat or replace the NIC (dmesg | grep mlx5 for a card that failed to come up), then re-run doctor");
        }
        return List.of("nvidia-smi topo -m   # the GPU-NIC matrix: expect PIX or PXB on a GPU node",
                "lspci -tv   # is the NIC in the slot the platform guide pairs with this GPU?",
                "move the NIC to a slot on the GPU's socket");
    }
}
