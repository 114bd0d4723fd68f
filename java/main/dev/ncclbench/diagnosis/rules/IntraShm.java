package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.Lines;

import java.util.ArrayList;
import java.util.List;

/** GPUs of one node copy through host shared memory instead of P2P. */
public final class IntraShm extends BaseRule<Facts> {
    public IntraShm() {
        super("INTRA-SHM", Severity.WARNING,
                "GPUs of one node exchange data through host shared memory, not P2P (disabled, ACS, virtualisation)");
    }

    @Override
    public List<Finding> check(Facts f) {
        if (f.shm().isEmpty()) {
            return List.of();
        }
        List<String> remedy = new ArrayList<>();
        f.env("NCCL_P2P_DISABLE").filter(s -> s.value().equals("1")).ifPresent(s ->
                remedy.add("unset NCCL_P2P_DISABLE   # =1 at " + s.source() + " forces SHM"));
        f.env("NCCL_P2P_LEVEL").ifPresent(s -> remedy.add("unset NCCL_P2P_LEVEL   # " + s.value() + " at "
                + s.source()));
        remedy.add("nvidia-smi topo -p2p r   # OK expected between GPUs of one node");
        remedy.add("sudo lspci -vvv | grep -E 'ReqRedir\\+|CmpltRedir\\+'   # ACS forces P2P through the root complex");
        return List.of(finding(Severity.WARNING,
                "GPUs of one node exchange data through host shared memory, not P2P",
                "SHM copies through host memory: P2P is disabled, unsupported by the platform, or blocked by ACS"
                        + " or virtualisation. On NVLink systems this costs most of the intra-node bandwidth.",
                Lines.describe(f.shm(), 4), remedy, References.ENV_DOC + "#nccl-p2p-disable"));
    }
}
