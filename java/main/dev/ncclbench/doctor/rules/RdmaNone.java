package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** No RDMA device at all: NCCL's inter-node path is TCP sockets, which is expected here, not a fallback. */
public final class RdmaNone extends BaseRule<HostEvidence> {
    public RdmaNone() {
        super("RDMA-NONE", Severity.WARNING,
                "no RDMA device: inter-node traffic will use TCP sockets (expected on socket-only hosts)");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        if (!s.ibDevices().isEmpty()) {
            return List.of();
        }
        boolean container = s.container().inContainer();
        return List.of(finding(container ? Severity.WARNING : Severity.INFO,
                "no RDMA device" + (container ? " visible in this container" : "") + ": NCCL's inter-node path will be TCP sockets",
                container ? "If the host has InfiniBand or RoCE, this container was started without it: NCCL falls back to sockets"
                        + " with no error." : "Expected on a host without InfiniBand or RoCE; the socket floor is the ceiling.",
                List.of("/sys/class/infiniband: empty or missing", "container: " + (container ? String.join("; ", s.container().signs()) : "no sign of one")),
                container ? List.of("docker run --device=/dev/infiniband --cap-add=IPC_LOCK ...") : List.of(),
                References.RUNBOOK));
    }
}
