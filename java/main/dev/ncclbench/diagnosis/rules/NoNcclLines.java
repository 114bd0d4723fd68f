package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** The input holds no NCCL output at all: nothing can be judged, and that is not a pass. */
public final class NoNcclLines extends BaseRule<Facts> {
    public NoNcclLines() {
        super("NO-NCCL-LINES", Severity.ERROR,
                "the input holds no NCCL output (NCCL_DEBUG was not INFO, or the wrong file)");
    }

    @Override
    public List<Finding> check(Facts f) {
        var c = f.evidence().counts();
        if (c.ncclLines() > 0) {
            return List.of();
        }
        return List.of(finding(Severity.ERROR, "no NCCL output in the input",
                "None of the " + c.total() + " lines is NCCL's: nothing can be judged. NCCL logs only"
                        + " with NCCL_DEBUG=INFO, and by default to stdout of each rank.",
                List.of(), List.of("export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,BOOTSTRAP,ENV,NET",
                        "export NCCL_DEBUG_FILE=/tmp/nccl.%h.%p   # one file per process",
                        "ncclbench explain /tmp/nccl.*"), References.ENV_DOC));
    }
}
