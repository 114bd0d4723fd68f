package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.Lines;
import dev.ncclbench.diagnosis.facts.RouteKind;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;

import java.util.List;

/** A NET plugin other than IB (AWS Libfabric, TCPX, FasTrak) carries the bytes. */
public final class NetPlugin extends BaseRule<Facts> {
    public NetPlugin() {
        super("NET-PLUGIN", Severity.INFO,
                "inter-node traffic uses a NET plugin (AWS Libfabric, GPUDirectTCPX, FasTrak...), with or without GPUDirect");
    }

    @Override
    public List<Finding> check(Facts f) {
        List<Connection> p = f.plugin();
        if (p.isEmpty()) {
            return withoutConnections(f);
        }
        String name = p.get(0).netName();
        long gdr = p.stream().filter(Connection::gdr).count();
        return List.of(finding(Severity.INFO, "inter-node traffic uses the " + name + " network plugin"
                        + (gdr == p.size() ? " with GPUDirect" : gdr == 0 ? " without GPUDirect" : ""),
                "A NET plugin (" + name + ") carries the bytes; judge its busbw against the fabric it drives.",
                Lines.describe(p, 4),
                gdr == p.size() ? List.of() : List.of("check the plugin's GPUDirect prerequisites (EFA:"
                        + " FI_EFA_USE_DEVICE_RDMA=1; TCPX/FasTrak: its dma-buf setup)"), References.NET_DOC));
    }

    /** No connection line: NCCL's choice of network (or the plugin's own init lines) names the plugin. */
    private List<Finding> withoutConnections(Facts f) {
        if (f.path() != RouteKind.PLUGIN_NET) {
            return List.of();
        }
        String name = f.overall().network();
        String fabric = f.pluginFabric(name);
        return List.of(finding(Severity.INFO, "inter-node traffic most likely uses the " + name + " network plugin"
                        + (fabric.isEmpty() ? "" : ", " + fabric),
                "NCCL chose the " + name + " plugin; no connection line shows the channels, so GPUDirect use is not"
                        + " shown. Judge its busbw against the fabric the plugin drives, not against IB or sockets.",
                f.overall().evidence(), List.of("export NCCL_DEBUG_SUBSYS=INIT,NET   # [send] via NET/" + name
                        + "/<dev>/GDRDMA lines show the channels and GPUDirect"), References.NET_DOC));
    }
}
