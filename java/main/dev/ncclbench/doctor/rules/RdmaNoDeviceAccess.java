package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** RDMA devices exist but /dev/infiniband (uverbs) is missing: typical of a container without device access. */
public final class RdmaNoDeviceAccess extends BaseRule<HostEvidence> {
    public RdmaNoDeviceAccess() {
        super("RDMA-NO-DEVICE-ACCESS", Severity.ERROR,
                "RDMA devices are present but /dev/infiniband has no uverbs node (container without device access)", true);
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        if (s.ibDevices().isEmpty() || HostFacts.hasVerbsDevices(s)) {
            return List.of();
        }
        String dev = s.devInfiniband() == null ? "/dev/infiniband does not exist" : "/dev/infiniband holds " + s.devInfiniband();
        boolean container = s.container().inContainer();
        return List.of(finding(Severity.ERROR, dev + " although " + s.ibDevices().size() + " RDMA device(s) exist: NCCL will fall back to sockets silently",
                "The verbs library opens /dev/infiniband/uverbsN; without it there is no verbs handle and NCCL uses TCP with no"
                        + " error message." + (container ? " This is a container: it needs the RDMA device (and on Kubernetes both"
                        + " the RDMA device-plugin resource and the secondary network attachment)." : ""),
                List.of(dev, "/sys/class/infiniband: " + s.ibDevices().stream().map(d -> d.name()).toList(),
                        "container: " + (container ? String.join("; ", s.container().signs()) : "no sign of one")),
                container ? List.of("docker run --device=/dev/infiniband --cap-add=IPC_LOCK ...",
                        "kubectl get pod $POD -o jsonpath='{.spec.containers[0].resources}'   # rdma/<name> present?")
                        : List.of("modprobe ib_uverbs", "ls -l /dev/infiniband   # expect uverbsN, rdma_cm"),
                References.RUNBOOK));
    }
}
