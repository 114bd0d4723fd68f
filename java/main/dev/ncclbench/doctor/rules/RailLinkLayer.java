package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.NicPort;
import dev.ncclbench.doctor.predict.Rail;
import dev.ncclbench.doctor.predict.RailVerdict;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** A rail port runs Ethernet (RoCE) among InfiniBand siblings, or the reverse: a port whose link type was flipped. */
public final class RailLinkLayer extends RailRule {
    public RailLinkLayer() {
        super("RAIL-LINK-LAYER", Severity.ERROR, "a GPU's rail NIC port runs another link layer than the other rails"
                + " (Ethernet among InfiniBand, or the reverse)", RailVerdict.WRONG_LINK_LAYER);
    }

    @Override
    String detail(Rail rail, Rail.Problem problem, NicPort port) {
        return "A ConnectX port's link type is a firmware setting (LINK_TYPE_P1: 1 InfiniBand, 2 Ethernet) that a"
                + " firmware update or a card swap can reset. NCCL opens it anyway, as RoCE; its peers on the other nodes"
                + " are InfiniBand, so connections over it fail or the rail falls back, and NCCL refuses to merge it with"
                + " an InfiniBand port of the same card.";
    }

    @Override
    List<String> remedy(HostSnapshot s, Rail rail, Rail.Problem problem, NicPort port) {
        String dev = port.pciAddress() == null ? port.device() : port.pciAddress();
        return List.of("ibstat " + port.device() + " " + port.port() + "   # Link layer",
                "mlxconfig -d " + dev + " query | grep LINK_TYPE   # 1 InfiniBand, 2 Ethernet",
                "mlxconfig -d " + dev + " set LINK_TYPE_P" + port.port() + "=" + ("Ethernet".equalsIgnoreCase(port.linkLayer())
                        ? "1" : "2") + "   # then reboot (or mlxfwreset) and re-run doctor",
                "until then: export NCCL_IB_HCA=^=" + port.device() + "   # keep NCCL off it");
    }
}
