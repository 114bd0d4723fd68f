package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** RDMA devices but no libibverbs.so.1: NCCL's IB transport cannot even try (images built without rdma-core). */
public final class VerbsMissing extends BaseRule<HostEvidence> {
    public VerbsMissing() {
        super("VERBS-LIBRARY-MISSING", Severity.ERROR,
                "RDMA devices are present but libibverbs.so.1 is not installed (rdma-core missing from the image)", true);
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        if (s.ibDevices().isEmpty() || s.versions().verbsLibrary() != null) {
            return List.of();
        }
        return List.of(finding(Severity.ERROR, "libibverbs.so.1 is not installed: NCCL cannot open " + s.ibDevices().get(0).name()
                        + " and will use sockets",
                "NCCL dlopen()s libibverbs.so.1 for its IB transport; without it NET/IB reports no device.",
                List.of("looked in /usr/lib/x86_64-linux-gnu, /usr/lib/aarch64-linux-gnu, /usr/lib64, /usr/lib, /lib64"),
                List.of("apt-get install -y libibverbs1 ibverbs-providers   # or: dnf install rdma-core", "ibv_devinfo"),
                References.RUNBOOK));
    }
}
