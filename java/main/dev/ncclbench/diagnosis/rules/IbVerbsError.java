package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.finding.References;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.List;

/** An ibv_* call failed (ibv_modify_qp, ibv_reg_mr, ibv_create_qp...) or the HCA raised a fatal async event. */
public final class IbVerbsError extends FailureFamilyRule {
    public IbVerbsError() {
        super("IB-VERBS-ERROR",
                "an InfiniBand/RoCE verbs call failed (ibv_modify_qp, ibv_reg_mr, ibv_create_qp) or a fatal async"
                + " event (WARNING when NCCL carried on)");
    }

    @Override
    FailureKind kind() {
        return FailureKind.VERBS;
    }

    @Override
    String title() {
        return "InfiniBand/RoCE verbs reported an error";
    }

    @Override
    String detail(List<Warning> lines) {
        String all = lines.toString();
        String what = all.contains("ibv_reg_mr") || all.contains("reg_mr")
                ? " ibv_reg_mr failing is memory registration: memlock limits, or GPU memory without nvidia_peermem/DMA-BUF."
                : all.contains("modify_qp") ? " ibv_modify_qp failing is connection set-up: on RoCE a wrong GID index or"
                + " a peer on another subnet, on IB a port that is down or a bad path."
                : all.contains("create_qp") ? " ibv_create_qp failing is a resource limit (memlock, max QPs)." : "";
        return "An ibv_ call or an HCA event failed: a port or link problem, a GID mismatch on RoCE, memory"
                + " registration refused (memlock), or a GPUDirect registration the driver refused." + what;
    }

    @Override
    List<String> remedy(Facts f, List<Warning> lines) {
        return List.of("ibstat | grep -E 'State:|Physical state:'   # expect Active / LinkUp",
                "ibv_devinfo -v | grep -E 'state|link_layer|active_mtu'",
                "ulimit -l   # expect unlimited (containers: IPC_LOCK and memlock)",
                "RoCE: show_gids; set NCCL_IB_GID_INDEX to the RoCE v2 GID with an IP",
                "perfquery / ibdiagnet for link errors; escalate to fabric bring-up if counters climb");
    }

    @Override
    String reference() {
        return References.NET_DOC;
    }
}
