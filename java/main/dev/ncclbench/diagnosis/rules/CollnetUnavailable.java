package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.Lines;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.List;

/** CollNet (SHARP) could not start; NCCL uses point-to-point instead. Not a failure. */
public final class CollnetUnavailable extends BaseRule<Facts> {
    public CollnetUnavailable() {
        super("COLLNET-UNAVAILABLE", Severity.INFO,
                "CollNet (SHARP) could not initialise; NCCL uses point-to-point instead");
    }

    /** NCCL's "Cannot initialize CollNet, using point-to-point network instead" (transport/coll_net, init.cc). */
    static boolean isCollnetWarning(Warning w) {
        return w.message().contains("Cannot initialize CollNet");
    }

    @Override
    public List<Finding> check(Facts f) {
        List<Warning> ws = f.evidence().warnings().stream().filter(CollnetUnavailable::isCollnetWarning).toList();
        if (ws.isEmpty()) {
            return List.of();
        }
        return List.of(finding(Severity.INFO,
                "CollNet (SHARP) could not initialise; NCCL uses point-to-point instead",
                "Not a failure: in-network reduction is off for this job.", Lines.warnings(ws),
                List.of("if SHARP is expected: check the SHARP plugin (libnccl-net.so) and NCCL_COLLNET_ENABLE=1"),
                References.ENV_DOC));
    }
}
