package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** No libnccl.so.2 found: the interface prediction follows assumed rules and cannot be proven by the probe. */
public final class NcclNotFound extends BaseRule<HostEvidence> {
    public NcclNotFound() {
        super("NCCL-NOT-FOUND", Severity.WARNING,
                "no libnccl.so.2 found (or recorded): the prediction uses assumed NCCL rules");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        if (s.versions().ncclLibrary() != null || s.versions().nccl() != null || s.probe() != null && s.probe().version() != null) {
            return List.of();
        }
        boolean live = "live".equals(s.source());
        return List.of(finding(live ? Severity.WARNING : Severity.INFO,
                live ? "no libnccl.so.2 found: NCCL's interface choice is predicted with 2.30 rules and not checked"
                        : "the snapshot records no NCCL version: the prediction assumes 2.30 rules",
                "The default order changed in 2.28 (virbr, links not RUNNING); an older NCCL may choose differently.",
                List.of("NCCL_HOME, LD_LIBRARY_PATH, ldconfig, CUDA_HOME and the pip packages searched (ncclbench env)"),
                List.of("pip install nvidia-nccl-cu13   # or set NCCL_HOME", "ncclbench env"), References.NCCLBENCH));
    }
}
