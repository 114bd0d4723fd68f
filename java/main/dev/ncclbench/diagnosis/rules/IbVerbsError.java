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

/** An ibv_ call or an RDMA completion failed. */
public final class IbVerbsError implements Rule<Facts> {
    @Override
    public String id() {
        return "IB-VERBS-ERROR";
    }

    @Override
    public Severity severity() {
        return Severity.ERROR;
    }

    @Override
    public String summary() {
        return "an InfiniBand/RoCE verbs call or completion failed (WARNING when NCCL carried on)";
    }

    @Override
    public List<Finding> check(Facts f) {
        List<Warning> ws = f.failures(FailureKind.VERBS);
        if (ws.isEmpty()) {
            return List.of();
        }
        boolean survived = ws.stream().allMatch(f::survived);
        return List.of(finding(survived ? Severity.WARNING : Severity.ERROR,
                "InfiniBand/RoCE verbs reported an error" + (survived ? " during init; NCCL carried on" : ""),
                "An ibv_ call or an RDMA completion failed: a port or link problem, a GID mismatch on RoCE, memory"
                        + " registration refused (memlock), or a GPUDirect registration the driver refused.",
                Lines.warnings(ws),
                List.of("ibstat | grep -E 'State:|Physical state:'   # expect Active / LinkUp",
                        "ibv_devinfo -v | grep -E 'state|link_layer|active_mtu'",
                        "ulimit -l   # expect unlimited (containers: IPC_LOCK and memlock)",
                        "RoCE: show_gids; set NCCL_IB_GID_INDEX to the RoCE v2 GID with an IP",
                        "perfquery / ibdiagnet for link errors; escalate to fabric bring-up if counters climb"),
                References.NET_DOC));
    }
}
