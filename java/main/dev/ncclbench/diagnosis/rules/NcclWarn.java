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

/** WARN lines no other rule interprets: shown, never silently dropped. */
public final class NcclWarn implements Rule<Facts> {
    @Override
    public String id() {
        return "NCCL-WARN";
    }

    @Override
    public Severity severity() {
        return Severity.WARNING;
    }

    @Override
    public String summary() {
        return "NCCL WARN lines no other rule interprets";
    }

    @Override
    public List<Finding> check(Facts f) {
        List<Warning> ws = f.evidence().warnings().stream().filter(w -> FailureKind.of(w) == FailureKind.NONE
                && !CollnetUnavailable.isCollnetWarning(w) && !w.ncclFile().isEmpty()).toList();
        if (ws.isEmpty()) {
            return List.of();
        }
        return List.of(finding(Severity.WARNING, ws.size() + " other NCCL WARN line(s)",
                "Warnings this tool does not interpret; read them, the first one first.", Lines.warnings(ws),
                List.of(), References.NET_DOC));
    }
}
