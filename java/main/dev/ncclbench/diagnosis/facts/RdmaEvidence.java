package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.Interface;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines of a log that show RDMA hardware or settings: devices, GDR lines, host tools, NCCL_IB_*, IPoIB
 * interfaces. "NET/IB : No device found." is evidence of no device, so what it explains away is left out.
 */
final class RdmaEvidence {
    private RdmaEvidence() {
    }

    static List<String> of(NcclLogEvidence e) {
        List<String> out = new ArrayList<>();
        for (var d : e.netDevices()) {
            if (!Networks.isSocket(d.network())) {
                out.add(d.source() + ": NCCL sees " + d.network() + " device " + d.name() + ":" + d.port()
                        + (d.linkLayer().isEmpty() ? "" : "/" + d.linkLayer()));
            }
        }
        for (var g : e.gdr()) {
            if (!Networks.isSocket(g.network())) {
                out.add(g.source() + ": " + g.text()); // 2.12+ prints the line for NET/Socket's NICs too
            }
        }
        for (var m : e.hostRdma()) {
            out.add(m.source() + ": " + m.kind() + " " + m.value());
        }
        for (var m : e.networks()) {
            if (m.kind().equals("plugin-failed") && Networks.isIb(m.value()) && !noDevice(e, m.host())) {
                // NET/IB also fails when it finds no device: then the failure says there is none
                out.add(m.source() + ": NET plugin " + m.value() + " failed to initialise");
            }
        }
        for (String v : List.of("NCCL_IB_HCA", "NCCL_IB_DISABLE", "NCCL_IB_GID_INDEX")) {
            // settings are no hardware: where NET/IB found no device they only say someone expected one
            e.envValue(v).filter(s -> !noDevice(e, "")).ifPresent(s -> out.add(s.source() + ": " + s.name() + "=" + s.value() + " (" + s.origin()
                    + ")"));
        }
        List<Interface> ifaces = new ArrayList<>(e.socketIfaces());
        ifaces.addAll(e.bootstrap());
        for (Interface i : ifaces) {
            String n = Facts.unOob(i.name());
            if (n.startsWith("ib") || n.startsWith("rdma")) {
                out.add(i.source() + ": interface " + n + " (IPoIB or RDMA netdev)");
            }
        }
        return out;
    }

    /** Whether NET/IB said "No device found" on this host (on any host when the line has none). */
    private static boolean noDevice(NcclLogEvidence e, String host) {
        return e.noNetDevice().stream().anyMatch(m -> Networks.isIb(m.value())
                && (host.isEmpty() || m.host().isEmpty() || m.host().equals(host)));
    }
}
