package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.RouteKind;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** Several hosts, yet no line says how they talk: the path between nodes is the one that matters, and unknown. */
public final class InterNodePathUnknown extends BaseRule<Facts> {
    public InterNodePathUnknown() {
        super("INTER-NODE-PATH-UNKNOWN", Severity.WARNING,
                "a multi-node log with no NET line: the inter-node path is unknown (not the intra-node one)");
    }

    @Override
    public List<Finding> check(Facts f) {
        if (!f.multiNode() || f.path() != RouteKind.UNKNOWN || f.initFailure() || f.runFailure()) {
            return List.of();
        }
        boolean intra = !f.evidence().connections().isEmpty();
        return List.of(finding(Severity.WARNING, "the log shows " + f.evidence().hosts().size()
                        + " hosts but nothing about the network between them",
                (intra ? "Only intra-node connection lines (P2P/SHM) are in the log" : "No connection line is in the"
                        + " log") + "; the inter-node path, the job's bottleneck, cannot be told. NCCL prints it"
                        + " only with the NET subsystem on.",
                f.evidence().hosts().stream().limit(4).map(h -> "host " + h).toList(),
                List.of("export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET   # and rerun: [send]/[receive] via NET/..."
                        + " lines name the inter-node path"), References.ENV_DOC + "#nccl-debug-subsys"));
    }
}
