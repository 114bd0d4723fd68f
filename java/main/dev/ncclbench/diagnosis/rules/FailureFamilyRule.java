package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.diagnosis.facts.Lines;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.ArrayList;
import java.util.List;

/**
 * A rule for one family of failure lines: ERROR when NCCL did not survive them (WARNING when every one came during
 * a process's init and that process still completed it), with the first failing host and rank, and the remedy.
 */
abstract class FailureFamilyRule extends BaseRule<Facts> {

    FailureFamilyRule(String id, String summary) {
        super(id, Severity.ERROR, summary);
    }

    FailureFamilyRule(String id, String summary, boolean degradesPath) {
        super(id, Severity.ERROR, summary, degradesPath);
    }

    /** The family this rule explains. */
    abstract FailureKind kind();

    abstract String title();

    abstract String detail(List<Warning> lines);

    abstract List<String> remedy(Facts f, List<Warning> lines);

    abstract String reference();

    @Override
    public List<Finding> check(Facts f) {
        List<Warning> ws = f.failures(kind());
        if (ws.isEmpty()) {
            return List.of();
        }
        boolean survived = ws.stream().allMatch(f::survived);
        List<String> ev = new ArrayList<>();
        Warning first = f.firstFailureWarning();
        if (!survived && first != null && ws.contains(first)) {
            ev.add("first failure: " + f.firstFailure());
        }
        ev.addAll(Lines.warnings(ws));
        return List.of(finding(survived ? Severity.WARNING : Severity.ERROR,
                title() + (survived ? " during init; NCCL carried on" : ""), detail(ws), ev, remedy(f, ws),
                reference()));
    }
}
