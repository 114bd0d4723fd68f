package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** The memlock limit is not unlimited and CAP_IPC_LOCK is absent: verbs cannot pin NCCL's buffers. */
public final class MemlockLimited extends BaseRule<HostEvidence> {
    public MemlockLimited() {
        super("MEMLOCK-LIMITED", Severity.ERROR,
                "the memlock ulimit is limited (and no CAP_IPC_LOCK): RDMA memory registration fails, NCCL falls back");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        Long limit = s.memlockBytes();
        if (limit == null || limit < 0 || Boolean.TRUE.equals(s.capIpcLock())) {
            return List.of();
        }
        boolean rdma = !s.ibDevices().isEmpty();
        return List.of(finding(rdma ? Severity.ERROR : Severity.INFO,
                "memlock is limited to " + (limit >= 1 << 20 ? HostFacts.mib(limit) : (limit >> 10) + " KiB") + " and CAP_IPC_LOCK is "
                        + (s.capIpcLock() == null ? "unknown" : "not effective"),
                rdma ? "Verbs pin NCCL's buffers; over the limit the registration fails and NCCL falls back or errors"
                        + " ('unhandled system error'). Containers need IPC_LOCK or an unlimited memlock." : "No RDMA device here, so nothing pins memory for NCCL; it matters on RDMA hosts.",
                List.of("/proc/self/limits: Max locked memory " + limit, "/proc/self/status CapEff: CAP_IPC_LOCK " + s.capIpcLock()),
                List.of("ulimit -l unlimited   # or in /etc/security/limits.conf: * - memlock unlimited",
                        "docker run --ulimit memlock=-1 --cap-add=IPC_LOCK ...",
                        "kubectl: securityContext.capabilities.add: [IPC_LOCK]"),
                References.RUNBOOK));
    }
}
