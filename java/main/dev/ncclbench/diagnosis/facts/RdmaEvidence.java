package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.Interface;
import dev.ncclbench.nccllog.Networks;

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
        for (var w : e.warnings()) {
            String m = w.message();
            if (m.contains("Unable to open device") || m.contains("ibv_open_device failed")) {
                // NET/IB found an HCA and could not open it (a container without its uverbs device, a driver mismatch)
                out.add(Lines.warning(w) + " (an RDMA device NCCL could not open)");
            }
        }
        for (var m : e.networks()) {
            if (m.kind().equals("plugin-failed") && Networks.isIb(m.value()) && !noDevice(e, m.host())) {
                // NET/IB also fails when it finds no device: then the failure says there is none
                out.add(m.source() + ": NET plugin " + m.value() + " failed to initialise");
            }
        }
        for (String v : List.of("NCCL_IB_HCA", "NCCL_IB_GID_INDEX")) {
            // settings are no hardware: where NET/IB found no device they only say someone expected one; and
            // NCCL_IB_DISABLE=1 says the job chose sockets, not that an HCA is there (NET/IB never looked)
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

    /**
     * The job's own settings that ask for an RDMA network, one line each: NCCL_IB_HCA (any value), NCCL_IB_DISABLE=0,
     * another NCCL_IB_ setting, NCCL_NET naming a network other than Socket, NCCL_NET_PLUGIN other than none,
     * NCCL_NET_GDR_LEVEL or NCCL_NET_GDR_READ, NCCL_IBEXT_DISABLE=0, NCCL_COLLNET_ENABLE=1. None when a setting turns
     * RDMA off (NCCL_IB_DISABLE non-zero, NCCL_NET=Socket): then sockets are what the job asked for. What NCCL said it
     * read comes first; a setting pasted on a command line counts too.
     */
    static List<String> requested(NcclLogEvidence e) {
        for (NcclLogEvidence.EnvSetting s : e.env()) {
            String v = s.value().trim();
            if (s.name().equals("NCCL_IB_DISABLE") && !v.equals("0") || s.name().equals("NCCL_NET")
                    && Networks.isSocket(v)) {
                return List.of();
            }
        }
        List<String> out = new ArrayList<>();
        java.util.Set<String> named = new java.util.HashSet<>();
        List<NcclLogEvidence.EnvSetting> ordered = new ArrayList<>(e.env().stream()
                .filter(NcclLogEvidence.EnvSetting::fromNccl).toList());
        e.env().stream().filter(s -> !s.fromNccl()).forEach(ordered::add);
        for (NcclLogEvidence.EnvSetting s : ordered) {
            if (asksForRdma(s.name(), s.value().trim()) && named.add(s.name())) {
                out.add(s.source() + ": " + s.name() + "=" + s.value() + " (" + (s.fromNccl() ? "NCCL read it"
                        : "pasted command line") + ")");
            }
        }
        return out;
    }

    private static boolean asksForRdma(String name, String v) {
        return switch (name) {
            case "NCCL_IB_DISABLE", "NCCL_IBEXT_DISABLE" -> v.equals("0");
            case "NCCL_NET" -> !v.isEmpty();
            case "NCCL_NET_PLUGIN" -> !v.isEmpty() && !v.equalsIgnoreCase("none");
            case "NCCL_COLLNET_ENABLE" -> v.equals("1");
            case "NCCL_NET_GDR_LEVEL", "NCCL_NET_GDR_READ", "NCCL_IB_GDR_LEVEL" -> !v.isEmpty();
            default -> name.startsWith("NCCL_IB_") && !v.isEmpty();
        };
    }

    /** Whether NET/IB said "No device found" on this host (on any host when the line has none). */
    private static boolean noDevice(NcclLogEvidence e, String host) {
        return e.noNetDevice().stream().anyMatch(m -> Networks.isIb(m.value())
                && (host.isEmpty() || m.host().isEmpty() || m.host().equals(host)));
    }
}
