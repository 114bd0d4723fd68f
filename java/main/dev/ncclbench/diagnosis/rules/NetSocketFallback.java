package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.HostRoutes;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.nccllog.Networks;
import dev.ncclbench.diagnosis.facts.RouteKind;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.EnvSetting;
import dev.ncclbench.nccllog.NcclLogEvidence.Interface;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The runbook's story: inter-node traffic on TCP sockets while the log shows RDMA hardware, or while the job's own
 * settings asked for RDMA (NCCL_IB_HCA, NCCL_NET=IB, a NET plugin, NCCL_NET_GDR_LEVEL...) and NET/Socket connection
 * lines show the bytes went over TCP. Settings alone are a request, not hardware: without socket connection lines
 * ("Using network Socket" only) NET-SOCKET-NO-RDMA says it as a warning.
 */
public final class NetSocketFallback extends BaseRule<Facts> {
    public NetSocketFallback() {
        super("NET-SOCKET-FALLBACK", Severity.ERROR,
                "inter-node traffic uses TCP sockets although the log shows RDMA hardware, or the job's settings asked"
                        + " for RDMA and NET/Socket connection lines show TCP", true);
    }

    /** The job asked for RDMA and NET/Socket connection lines show what it got: degraded on the log's own word. */
    static boolean askedAndGotSockets(Facts f) {
        return f.path() == RouteKind.SOCKET && !f.rdmaRequested().isEmpty()
                && (!f.socket().isEmpty() || f.hostRoutes().worst() == RouteKind.SOCKET);
    }

    @Override
    public List<Finding> check(Facts f) {
        if (f.path() != RouteKind.SOCKET || !f.rdmaPresent() && !askedAndGotSockets(f)) {
            return List.of();
        }
        if (!f.rdmaPresent()) {
            return List.of(asked(f));
        }
        NcclLogEvidence e = f.evidence();
        // which hosts fell back, from every host's own lines: in a 1024-node job it may be two of them
        List<String> onSocket = f.hostRoutes().hostsOn(RouteKind.SOCKET, e);
        int withNet = f.hostRoutes().namedHosts();
        String where = onSocket.isEmpty() ? "" : " on " + onSocket.size() + " of " + withNet + " host(s) ("
                + HostRoutes.names(onSocket, 8) + ")";
        List<String> ev = new ArrayList<>(f.overall().evidence());
        e.socketIfaces().stream().limit(2).forEach(i -> ev.add(i.source() + ": NET/Socket uses " + i.name()
                + ":" + i.address()));
        e.noNetDevice().stream().limit(2).forEach(m -> ev.add(m.source() + ": NET/" + m.value()
                + " : No device found"));
        ev.addAll(f.rdmaEvidence().stream().limit(6).toList());
        List<String> remedy = new ArrayList<>();
        Optional<EnvSetting> disable = f.env("NCCL_IB_DISABLE");
        if (disable.isPresent() && !disable.get().value().equals("0")) {
            remedy.add("unset NCCL_IB_DISABLE   # set to " + disable.get().value() + " at "
                    + disable.get().source() + ": it forces sockets");
        }
        f.env("NCCL_NET").filter(s -> Networks.isSocket(s.value())).ifPresent(s ->
                remedy.add("unset NCCL_NET   # NCCL_NET=" + s.value() + " at " + s.source() + " forces sockets"));
        String hca = f.hcaName();
        Optional<EnvSetting> hcaEnv = f.env("NCCL_IB_HCA");
        if (hcaEnv.isPresent()) {
            remedy.add("ibv_devices   # NCCL_IB_HCA=" + hcaEnv.get().value() + " must match these names (prefix"
                    + " match; ^ excludes, = exact), or be unset");
        }
        if (!e.noNetDevice().isEmpty()) {
            remedy.add("ls /dev/infiniband   # inside the container: expect uverbsN and rdma_cm");
            remedy.add("Kubernetes: request the RDMA device-plugin resource (rdma/...) and attach the secondary"
                    + " network; docker: --device=/dev/infiniband --cap-add=IPC_LOCK --ulimit memlock=-1");
            remedy.add("ibv_devinfo   # fails or is absent: install rdma-core/libibverbs in the image");
        }
        remedy.add(hca != null ? "export NCCL_IB_HCA=" + hca + "   # the HCA the host shows"
                : "export NCCL_IB_HCA=<HCA from ibv_devices, e.g. mlx5_0>");
        String used = e.socketIfaces().stream().map(Interface::name).findFirst().orElse("");
        List<Interface> ifaces = new ArrayList<>(e.socketIfaces());
        ifaces.addAll(e.bootstrap());
        String ipoib = ifaces.stream().map(i -> Facts.unOob(i.name()))
                .filter(n -> n.startsWith("ib") || n.startsWith("rdma")).findFirst().orElse("");
        if (!ipoib.isEmpty() && ipoib.equals(used)) {
            // sockets already run over IPoIB: the interface is right, RDMA is what is missing (the lines above)
            remedy.add("keep NCCL_SOCKET_IFNAME=" + used + "   # IPoIB carries the sockets now; the data must move to"
                    + " NET/IB, not to another interface");
        } else {
            remedy.add("export NCCL_SOCKET_IFNAME=" + (ipoib.isEmpty() ? "<the data NIC, e.g. rdma0 or ib0>" : ipoib)
                    + (used.isEmpty() ? "" : "   # not " + used + "; or ^" + used + " to exclude it"));
        }
        remedy.add("ulimit -l   # expect unlimited; Kubernetes: securityContext.capabilities.add: [IPC_LOCK]");
        remedy.add("ibstat | grep -E 'State:|Physical state:'   # Active/LinkUp, else a fabric fault");
        remedy.add("verify: NCCL_DEBUG=INFO shows 'Using network IB' (or IBext) and [send] via NET/IB/<n>/GDRDMA");
        return List.of(finding(Severity.ERROR, e.noNetDevice().isEmpty()
                        ? "inter-node traffic uses TCP sockets although RDMA hardware is present"
                        : "inter-node traffic uses TCP sockets: no RDMA device visible to NCCL on a host, although"
                        + " the log shows RDMA hardware",
                "NCCL chose NET/Socket" + (used.isEmpty() ? "" : " over " + used) + where + " while the log shows RDMA"
                        + " devices. Sockets cap the job at a fraction of the fabric: on 10 GbE about 1.1 GB/s, on"
                        + " 100G 30-50% of line rate, with a host core pegged copying data.",
                ev, remedy, References.RUNBOOK + "; " + References.ENV_DOC));
    }

    /** No RDMA device in sight, but the job asked for one: the most common misconfiguration passes no CI step. */
    private Finding asked(Facts f) {
        NcclLogEvidence e = f.evidence();
        List<String> ev = new ArrayList<>(f.overall().evidence().stream().limit(4).toList());
        ev.addAll(f.rdmaRequested().stream().limit(4).toList());
        e.noNetDevice().stream().limit(2).forEach(m -> ev.add(m.source() + ": NET/" + m.value()
                + " : No device found"));
        List<String> remedy = new ArrayList<>();
        f.env("NCCL_IB_HCA").ifPresent(h -> remedy.add("ibv_devices   # NCCL_IB_HCA=" + h.value() + " must match"
                + " these names (prefix match; ^ excludes, = exact)"));
        if (!e.noNetDevice().isEmpty()) {
            remedy.add("ls /dev/infiniband   # inside the container: expect uverbsN and rdma_cm");
            remedy.add("Kubernetes: request the RDMA device-plugin resource (rdma/...) and attach the secondary"
                    + " network; docker: --device=/dev/infiniband --cap-add=IPC_LOCK --ulimit memlock=-1");
        }
        remedy.add("ibv_devinfo   # no device, or absent: the RDMA stack (rdma-core, libibverbs) is missing");
        remedy.add("if these nodes have no RDMA NIC, drop the RDMA settings so the job says what it runs on");
        remedy.add("verify: NCCL_DEBUG=INFO shows 'Using network IB' (or the plugin) and [send] via NET/IB/<n>/GDRDMA");
        String where = f.hostRoutes().hostsOn(RouteKind.SOCKET, e).isEmpty() ? "" : " on "
                + HostRoutes.names(f.hostRoutes().hostsOn(RouteKind.SOCKET, e), 8);
        return finding(Severity.ERROR, "inter-node traffic uses TCP sockets although the job's settings asked for RDMA",
                "The job's own settings ask for an RDMA network (" + String.join(", ", f.rdmaRequested().stream()
                        .map(NetSocketFallback::setting).distinct().limit(4).toList()) + "), yet NCCL's NET/Socket"
                        + " connection lines" + where + " show the bytes went over TCP"
                        + (e.noNetDevice().isEmpty() ? "" : ": NET/IB found no device") + ". Sockets cap the job at a"
                        + " fraction of the fabric it was set up for.",
                ev, remedy, References.RUNBOOK + "; " + References.ENV_DOC);
    }

    /** "NCCL_IB_HCA=mlx5_9" from "file:12: NCCL_IB_HCA=mlx5_9 (NCCL read it)". */
    private static String setting(String line) {
        int at = line.indexOf(": NCCL_");
        String s = at >= 0 ? line.substring(at + 2) : line;
        int paren = s.lastIndexOf(" (");
        return paren > 0 ? s.substring(0, paren) : s;
    }
}
