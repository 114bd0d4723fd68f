package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.NicPort;
import dev.ncclbench.doctor.predict.Rail;
import dev.ncclbench.doctor.predict.RailVerdict;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** A port of a GPU's rail is not ACTIVE / LinkUp: NCCL skips it and the GPU's traffic shares another NIC. */
public final class RailPortDown extends RailRule {
    public RailPortDown() {
        super("RAIL-PORT-DOWN", Severity.ERROR, "a GPU's rail NIC port is down (state not ACTIVE or physical state not"
                + " LinkUp): the GPU's traffic shares another NIC", RailVerdict.DOWN);
    }

    @Override
    String detail(Rail rail, Rail.Problem problem, NicPort port) {
        return "NCCL opens only ACTIVE ports. With this one down, the GPU's channels go through a neighbour's NIC (over"
                + " NVLink with PXN, or through the CPU), which then carries two rails' traffic: every collective that"
                + " crosses the network is capped by that NIC. Polling means no link (cable, transceiver, switch port);"
                + " Disabled means the port or the switch side is shut; an InfiniBand port at INIT has a link but no"
                + " subnet manager has brought it up.";
    }

    @Override
    List<String> remedy(HostSnapshot s, Rail rail, Rail.Problem problem, NicPort port) {
        if (!NicPort.IB.equals(port.transport())) {
            return List.of("ip link show " + port.device() + "   # expect state UP", "ethtool " + port.device()
                    + "   # Link detected: yes", "check the cable and the switch port");
        }
        return List.of("ibstat " + port.device() + " " + port.port() + "   # expect State: Active, Physical state: LinkUp",
                "mlxlink -d " + port.device() + " -m   # cable, module and the switch side's view",
                "reseat or replace the cable or transceiver; on InfiniBand check the subnet manager (sminfo)",
                "drain the node until the port is back: its rail runs on another NIC at a fraction of line rate");
    }
}
