package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.InterfacePredictor;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.NcclProbeResult;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.List;

/** The real NCCL's ncclGetUniqueId failed (the same failure every rank of a job would hit), or the probe itself. */
public final class ProbeBootstrapFailed extends BaseRule<HostEvidence> {
    public ProbeBootstrapFailed() {
        super("PROBE-BOOTSTRAP-FAILED", Severity.ERROR,
                "the real libnccl.so.2 cannot bootstrap here (ncclGetUniqueId fails), or the probe could not run");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        NcclProbeResult p = s.probe();
        if (p == null) {
            return List.of();
        }
        if (p.problem() != null) {
            return List.of(finding(Severity.WARNING, "the NCCL probe could not run: " + p.problem(),
                    "doctor's interface prediction stands unchecked against the real library.",
                    List.of("library: " + p.library()), List.of("ncclbench probe   # the same check, with its own output"), References.NCCLBENCH));
        }
        if (p.status() == 0 || InterfacePredictor.predict(s).bootstrapFails()) {
            return List.of(); // a predicted failure is already SOCKET-IFNAME-NO-MATCH, with the probe's words as evidence
        }
        List<String> ev = new ArrayList<>();
        ev.add("ncclGetUniqueId: " + p.statusName() + " (" + p.status() + ")");
        p.warnings().forEach(w -> ev.add("NCCL WARN " + w));
        return List.of(finding(Severity.ERROR, "NCCL " + p.version() + " cannot bootstrap here: "
                        + (p.warnings().isEmpty() ? p.statusName() : p.warnings().get(0)),
                "Every rank of a job would stop in ncclGetUniqueId / ncclCommInitRank the same way.",
                ev, List.of("NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,BOOTSTRAP,NET ncclbench probe"), References.NET_DOC));
    }
}
