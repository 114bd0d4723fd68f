package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.RailTable;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.IbDevice;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * An RDMA port that is not Active, or whose physical state is not LinkUp (cable, or no subnet manager converged), and
 * that is no GPU's rail (a storage or spare port; a rail's own is RAIL-PORT-DOWN).
 */
public final class IbPortDown extends BaseRule<HostEvidence> {
    public IbPortDown() {
        super("IB-PORT-NOT-ACTIVE", Severity.ERROR,
                "an RDMA port that is no GPU's rail (storage, spare) is not Active or not LinkUp (cabling, subnet manager)");
    }

    @Override
    public List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        List<Finding> out = new ArrayList<>();
        boolean anyActive = !HostFacts.activePorts(s).isEmpty();
        java.util.Set<String> saidElsewhere = new java.util.HashSet<>();
        host.rails().rails().forEach(r -> r.ports().forEach(p -> saidElsewhere.add(p.name())));
        saidElsewhere.addAll(RailTable.idleVirtualFunctions(s)); // a VF no pod was given is down by design
        for (IbDevice d : s.ibDevices()) {
            for (IbDevice.Port p : d.ports()) {
                if (p.up() || saidElsewhere.contains(d.name() + ":" + p.port())) {
                    continue; // a rail's port that is down is RAIL-PORT-DOWN's, said with its rail
                }
                String where = "/sys/class/infiniband/" + d.name() + "/ports/" + p.port();
                // a spare port on a node whose other ports work is worth a look, not a stop
                Severity sev = anyActive ? Severity.WARNING : Severity.ERROR;
                out.add(finding(sev, d.name() + " port " + p.port() + " is " + p.state() + " / " + p.physState()
                                + " (expected ACTIVE / LinkUp)",
                        "Polling or Down physical state means no link or no subnet manager has converged on this port: a fabric"
                                + " fault, not a configuration one. NCCL cannot use the port and falls back to another device or to sockets.",
                        List.of(where + "/state: " + p.state(), where + "/phys_state: " + p.physState()),
                        List.of("ibstat " + d.name() + " " + p.port() + "   # expect State: Active, Physical state: LinkUp",
                                "check the cable and the subnet manager (sminfo); escalate to fabric bring-up"),
                        References.RUNBOOK));
            }
        }
        return out;
    }
}
