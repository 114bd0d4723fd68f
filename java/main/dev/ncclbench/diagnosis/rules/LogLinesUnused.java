package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** The reader's coverage: NCCL lines it had no use for, lines cut, items over the caps. */
public final class LogLinesUnused extends BaseRule<Facts> {
    public LogLinesUnused() {
        super("LOG-LINES-UNUSED", Severity.INFO,
                "how many NCCL lines the reader did not use, cut, or dropped over its caps");
    }

    @Override
    public List<Finding> check(Facts f) {
        var c = f.evidence().counts();
        if (c.unused() == 0 && c.truncated() == 0 && c.dropped() == 0) {
            return List.of();
        }
        return List.of(finding(Severity.INFO,
                c.unused() + " of " + c.ncclLines() + " NCCL lines not used; " + c.truncated() + " cut; "
                        + c.dropped() + " items over the caps",
                "Lines this reader has no use for (topology, tuning, allocations) are counted, not errors.",
                List.of(), List.of(), References.NCCLBENCH));
    }
}
