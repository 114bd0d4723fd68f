package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.NicPort;
import dev.ncclbench.doctor.predict.Rail;
import dev.ncclbench.doctor.predict.RailVerdict;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Severity;

import java.util.List;

/**
 * A rail port is up but slower than its siblings (the other rails' ports of the same NIC model and link layer) or than
 * the fabric the site declared: a link that trained down (4X NDR to 2X, NDR to HDR).
 */
public final class RailTrainedDown extends RailRule {
    public RailTrainedDown() {
        super("RAIL-TRAINED-DOWN", Severity.ERROR, "a GPU's rail NIC port is up at a lower rate or width than its sibling"
                + " ports or the fabric in the catalog (a link that trained down)", RailVerdict.TRAINED_DOWN);
    }

    @Override
    String detail(Rail rail, Rail.Problem problem, NicPort port) {
        return "A ring or tree goes through every rail, so the slowest one sets the pace of every collective that crosses"
                + " the network: one NDR port at 2X (200 instead of 400 Gbit/s) caps an 8-rail node near 192 instead of 384"
                + " GB/s, and NCCL still lists it (Together's 2026-07 post-mortem found this by hand). Usually a cable or"
                + " transceiver with failed lanes, or a switch port set to a lower speed.";
    }

    @Override
    List<String> remedy(HostSnapshot s, Rail rail, Rail.Problem problem, NicPort port) {
        if (!NicPort.IB.equals(port.transport())) {
            return List.of("ethtool " + port.device() + "   # Speed, and the link modes both ends advertise",
                    "reseat or replace the cable or transceiver; check the switch port's speed");
        }
        return List.of("ibstat " + port.device() + " " + port.port() + "   # Rate",
                "mlxlink -d " + port.device() + " -m -e   # the width and speed it trained to, the cable, bit errors",
                "reseat or replace the cable or transceiver, then check the switch port (ibportstate, or the switch's own"
                        + " CLI) for its enabled width and speed",
                "drain the node until it trains at full rate: with it in NCCL_IB_HCA every collective runs at its pace");
    }
}
