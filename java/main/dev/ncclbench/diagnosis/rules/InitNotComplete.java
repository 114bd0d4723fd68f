package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.nccllog.NcclLogEvidence.RankInfo;

import java.util.List;

/** Ranks that started init and never printed Init COMPLETE: a cut log, or ranks that hung or died. */
public final class InitNotComplete extends BaseRule<Facts> {
    public InitNotComplete() {
        super("INIT-NOT-COMPLETE", Severity.WARNING,
                "ranks started init without 'Init COMPLETE' (a cut log, or ranks that hang or died in init)");
    }

    @Override
    public List<Finding> check(Facts f) {
        if (f.evidence().ranks().isEmpty() || f.initFailure()) {
            return List.of();
        }
        List<RankInfo> open = f.evidence().ranks().stream().filter(r -> !r.initComplete()).toList();
        if (open.isEmpty()) {
            return List.of();
        }
        return List.of(finding(Severity.WARNING,
                open.size() + " rank init(s) started without 'Init COMPLETE'",
                "Either the log was cut before the end of init, or these ranks hang or died during init.",
                open.stream().limit(6).map(r -> r.source() + ": rank " + r.rank() + "/" + r.nranks() + " on "
                        + r.host() + " pid " + r.pid() + " Init START").toList(),
                List.of("check that the log is complete; if ranks hang at init see the NCCL-hang runbook"),
                References.NET_DOC));
    }
}
