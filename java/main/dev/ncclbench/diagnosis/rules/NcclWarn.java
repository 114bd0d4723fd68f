package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.Lines;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.List;

/** WARN lines no other rule interprets: shown, never silently dropped. */
public final class NcclWarn extends BaseRule<Facts> {
    public NcclWarn() {
        super("NCCL-WARN", Severity.WARNING, "NCCL WARN lines no other rule interprets");
    }

    @Override
    public List<Finding> check(Facts f) {
        List<Warning> ws = f.unexplained();
        if (ws.isEmpty()) {
            return List.of();
        }
        return List.of(finding(Severity.WARNING, ws.size() + " other NCCL WARN line(s)",
                "Warnings this tool does not interpret; read them, the first one first. Until they are"
                        + " understood the diagnosis is not certain.", Lines.warnings(ws),
                List.of(), References.NET_DOC));
    }
}
