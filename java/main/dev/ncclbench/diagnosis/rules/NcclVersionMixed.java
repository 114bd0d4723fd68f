package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** Ranks that print different NCCL versions. */
public final class NcclVersionMixed extends BaseRule<Facts> {
    public NcclVersionMixed() {
        super("NCCL-VERSION-MIXED", Severity.WARNING, "ranks run different NCCL versions");
    }

    @Override
    public List<Finding> check(Facts f) {
        var versions = f.evidence().ncclVersions();
        if (versions.size() < 2) {
            return List.of();
        }
        return List.of(finding(Severity.WARNING, "ranks run different NCCL versions",
                "Mixed versions can fail to connect or silently pick different algorithms.",
                versions.stream().map(v -> v.source() + ": NCCL " + v.version() + " on " + v.host()).toList(),
                List.of("install one NCCL version on every node (pip nvidia-nccl-cu12/cu13 or the system package)"),
                References.NET_DOC));
    }
}
