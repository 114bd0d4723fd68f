package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.FailureKind;
import dev.ncclbench.diagnosis.facts.Lines;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.List;

/** NCCL reported a failure that no more specific rule explains. */
public final class NcclError extends BaseRule<Facts> {
    public NcclError() {
        super("NCCL-ERROR", Severity.ERROR,
                "NCCL reported a failure (system/internal error, error line) that no more specific rule explains");
    }

    @Override
    public List<Finding> check(Facts f) {
        List<Warning> ws = f.failures(FailureKind.ERROR);
        if (ws.isEmpty() || f.failures().size() > ws.size()) {
            return List.of(); // a more specific rule explains it
        }
        if (ws.stream().allMatch(f::survived)) {
            // error returns (NCCL's trace of an error on its way up) of a process that went on: a handled error, such
            // as a NET plugin probed and not found or refused (NCCL_IBEXT_DISABLE=1)
            return List.of(finding(Severity.WARNING, "NCCL traced an error and went on",
                    "NCCL printed an error return (or an error) and the same process went on: a later connection,"
                            + " network choice, Init COMPLETE or results table. Often a handled error, such as a NET"
                            + " plugin probed and absent, or refused by NCCL_IBEXT_DISABLE=1.", Lines.warnings(ws),
                    List.of("nothing to do when the job ran; if it misbehaves, read the lines just before the first"
                            + " error return"), References.NET_DOC));
        }
        return List.of(finding(Severity.ERROR, "NCCL reported a failure",
                "The log has NCCL errors but no WARN this tool can attribute. The earliest WARN or error line is"
                        + " usually the cause; later ones are ranks giving up.",
                Lines.warnings(ws),
                List.of("rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,BOOTSTRAP,ENV,NET and read the first WARN",
                        "'unhandled system error': check /dev/shm size (docker --shm-size) and the interfaces"),
                References.NET_DOC));
    }
}
