package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.Lines;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;

import java.util.List;

/** PXN: a send first crosses NVLink to the GPU next to the NIC. */
public final class NetPxn extends BaseRule<Facts> {
    public NetPxn() {
        super("NET-PXN", Severity.INFO, "PXN: some sends go through a peer GPU's NIC (NET/<net>/<dev>(<proxy rank>))");
    }

    @Override
    public List<Finding> check(Facts f) {
        List<Connection> p = f.net().stream().filter(c -> c.proxyRank() >= 0).toList();
        if (p.isEmpty()) {
            return List.of();
        }
        return List.of(finding(Severity.INFO, "PXN: some sends go through a peer GPU's NIC",
                "NET/<net>/<dev>(<proxy rank>) means the data first moves over NVLink to the GPU next to the NIC.",
                Lines.describe(p, 3), List.of(), References.ENV_DOC + "#nccl-pxn-disable"));
    }
}
