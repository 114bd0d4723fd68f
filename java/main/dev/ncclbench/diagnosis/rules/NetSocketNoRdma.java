package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.RouteKind;

import java.util.ArrayList;
import java.util.List;

/** Sockets between nodes and no RDMA device in sight: right for plain Ethernet, a hint in a container. */
public final class NetSocketNoRdma extends BaseRule<Facts> {
    public NetSocketNoRdma() {
        super("NET-SOCKET-NO-RDMA", Severity.WARNING,
                "inter-node traffic uses TCP sockets and NCCL shows no RDMA device (WARNING when NET/IB said \"No device"
                        + " found\": no RDMA device visible to NCCL)");
    }

    @Override
    public List<Finding> check(Facts f) {
        if (f.path() != RouteKind.SOCKET || f.rdmaPresent() || NetSocketFallback.askedAndGotSockets(f)) {
            return List.of();
        }
        List<String> ev = new ArrayList<>(f.overall().evidence());
        f.evidence().noNetDevice().stream().limit(2).forEach(m -> ev.add(m.source() + ": NET/" + m.value()
                + " : No device found"));
        ev.addAll(f.rdmaRequested().stream().limit(4).toList());
        boolean containerHint = !f.evidence().noNetDevice().isEmpty();
        boolean asked = !f.rdmaRequested().isEmpty();
        return List.of(finding(containerHint || asked ? Severity.WARNING : Severity.INFO,
                (containerHint ? "inter-node traffic uses TCP sockets: no RDMA device visible to NCCL"
                        : "inter-node traffic uses TCP sockets; NCCL shows no RDMA device")
                        + (asked ? ", although the job's settings ask for RDMA" : ""),
                (containerHint ? "NET/IB said \"No device found\": no RDMA device is visible to NCCL on that host."
                        + " " : "") + "Correct for nodes without IB/RoCE NICs. If these nodes do have"
                        + " them, NCCL cannot see them: in a container that is /dev/infiniband, IPC_LOCK, the RDMA"
                        + " device-plugin resource or missing verbs libraries"
                        + f.env("NCCL_IB_HCA").map(h -> "; or NCCL_IB_HCA=" + h.value() + " matches none of them")
                        .orElse("") + "." + (!asked ? "" : " The job's settings ask for RDMA ("
                        + f.rdmaRequested().size() + " setting(s) below), but no connection line shows what carried"
                        + " the bytes, so this stays a warning."),
                ev, List.of("ibv_devices   # on the host and in the container: an RDMA NIC that only the host lists"
                                + " is the container's access", "ls /dev/infiniband",
                        "compare busbw with the socket floor: ncclbench sweep --backend socket"),
                References.RUNBOOK));
    }
}
