package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.RouteKind;

import java.util.List;

/** NCCL lines but no connection line: the path is guessed or unknown, and that is not a pass. */
public final class NoPathEvidence extends BaseRule<Facts> {
    public NoPathEvidence() {
        super("NO-PATH-EVIDENCE", Severity.WARNING,
                "the log has no connection lines (Channel ... via ...): the path is inferred or unknown");
    }

    @Override
    public List<Finding> check(Facts f) {
        if (f.evidence().counts().ncclLines() == 0 || !f.evidence().connections().isEmpty() || f.initFailure()
                || f.runFailure() || f.path() == RouteKind.LOOPBACK
                || f.multiNode() && f.path() == RouteKind.UNKNOWN) {
            return List.of();
        }
        boolean guessed = f.path() != RouteKind.UNKNOWN;
        return List.of(finding(guessed ? Severity.INFO : Severity.WARNING,
                "the log has no connection lines (Channel ... via ...)",
                guessed ? "The path was inferred from NCCL's choice of network, not from connections."
                        : "Without them the path cannot be told; this is not a pass.",
                List.of(), List.of("export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET"),
                References.ENV_DOC + "#nccl-debug"));
    }
}
