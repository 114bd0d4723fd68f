package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.Lines;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;
import dev.ncclbench.nccllog.NcclLogEvidence.GdrStatus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The GPUDirect lines contradict each other: a node whose HCA lines say GDR is enabled while its connections lack
 * /GDRDMA (or the reverse), or one HCA both enabled and disabled (per-GPU lines), per HCA and per node.
 */
public final class NetGdrDisagree extends BaseRule<Facts> {
    public NetGdrDisagree() {
        super("NET-GDR-DISAGREE", Severity.WARNING,
                "GPUDirect lines disagree: per-HCA GDR Enabled/Disabled against the /GDRDMA of the connections, per node");
    }

    @Override
    public List<Finding> check(Facts f) {
        Map<String, List<GdrStatus>> byHost = new LinkedHashMap<>();
        f.evidence().gdr().forEach(g -> byHost.computeIfAbsent(g.host(), h -> new ArrayList<>()).add(g));
        List<String> ev = new ArrayList<>();
        List<String> hosts = new ArrayList<>();
        for (var e : byHost.entrySet()) {
            String host = e.getKey();
            boolean on = e.getValue().stream().anyMatch(GdrStatus::enabled);
            boolean off = e.getValue().stream().anyMatch(g -> !g.enabled());
            List<Connection> conns = f.ib().stream().filter(c -> c.host().equals(host)).toList();
            boolean connGdr = conns.stream().anyMatch(Connection::gdr);
            boolean connNoGdr = conns.stream().anyMatch(c -> !c.gdr());
            boolean clash = on && !off && connNoGdr && !connGdr || off && !on && connGdr && !connNoGdr;
            boolean perHca = sameHcaBothWays(e.getValue());
            if (clash || perHca) {
                hosts.add(host.isEmpty() ? "(no host)" : host);
                e.getValue().stream().limit(2).forEach(g -> ev.add(g.source() + ": " + g.text()));
                conns.stream().limit(2).forEach(c -> ev.add(Lines.describe(c)));
            }
        }
        if (hosts.isEmpty()) {
            return List.of();
        }
        return List.of(finding(Severity.WARNING, "GPUDirect RDMA lines disagree on " + String.join(", ", hosts),
                "NET/IB's per-HCA (or per-GPU) GDR lines and the connection lines do not say the same thing: GDR can"
                        + " be allowed for an HCA and still not used for a GPU too far from it (NCCL_NET_GDR_LEVEL),"
                        + " or enabled for some GPUs only. The connection lines say what carried data.",
                ev, List.of("nvidia-smi topo -m   # the GPU-NIC distance of the GPUs without GDRDMA",
                        "export NCCL_TOPO_DUMP_FILE=/tmp/topo.xml   # per-GPU gdr attributes"),
                References.ENV_DOC + "#nccl-net-gdr-level-formerly-nccl-ib-gdr-level"));
    }

    private static boolean sameHcaBothWays(List<GdrStatus> gs) {
        Map<String, Boolean> seen = new LinkedHashMap<>();
        for (GdrStatus g : gs) {
            String k = g.hcaName().isEmpty() ? String.valueOf(g.hca()) : g.hcaName();
            Boolean old = seen.put(k, g.enabled());
            if (old != null && old != g.enabled()) {
                return true;
            }
        }
        return false;
    }
}
