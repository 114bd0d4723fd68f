package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.Problem;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.List;

/** A collector that failed or lacked permission: its question stays open, said out loud rather than passed. */
public final class EvidenceMissing extends BaseRule<HostEvidence> {
    public EvidenceMissing() {
        super("EVIDENCE-MISSING", Severity.WARNING,
                "a collector could not read its evidence (permission, missing tool, incomplete capture): not a pass");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        List<Finding> out = new ArrayList<>();
        for (Problem p : s.problems()) {
            out.add(finding(Severity.WARNING, p.collector() + " (" + p.what() + "): " + p.detail(),
                    "The checks that need this evidence could not run; doctor does not count them as passed.",
                    List.of(p.what() + ": " + p.detail()), p.remedy() == null ? List.of() : List.of(p.remedy()),
                    References.NCCLBENCH));
        }
        return out;
    }
}
