package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.Lines;
import dev.ncclbench.nccllog.Direction;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** GPUDirect RDMA on some nodes, sides or connections only. */
public final class NetGdrAsymmetric extends BaseRule<Facts> {
    public NetGdrAsymmetric() {
        super("NET-GDR-ASYMMETRIC", Severity.ERROR,
                "GPUDirect RDMA on some nodes or connections only (INFO when only sends lack it)", true);
    }

    @Override
    public List<Finding> check(Facts f) {
        List<Connection> ib = f.ib();
        long gdr = ib.stream().filter(Connection::gdr).count();
        if (gdr == 0 || gdr == ib.size()) {
            return List.of();
        }
        // per node: some hosts with GDR everywhere, some without
        Map<String, long[]> perHost = new LinkedHashMap<>();
        for (Connection c : ib) {
            perHost.computeIfAbsent(c.host(), h -> new long[2])[c.gdr() ? 0 : 1]++;
        }
        List<String> without = perHost.entrySet().stream().filter(x -> x.getValue()[0] == 0).map(Map.Entry::getKey)
                .toList();
        if (!without.isEmpty() && without.size() < perHost.size()) {
            return List.of(finding(Severity.ERROR,
                    "GPUDirect RDMA on some nodes only: " + String.join(", ", without) + " stage through host memory",
                    "One node without GDR slows every ring that passes through it. A stale OFED, a missing"
                            + " nvidia_peermem or ACS re-enabled on one node is the usual cause.",
                    Lines.describe(ib.stream().filter(c -> without.contains(c.host())).toList(), 6),
                    List.of("on " + String.join(", ", without) + ": lsmod | grep nvidia_peermem",
                            "compare driver/OFED/NCCL versions across nodes (ofed_info -s; nvidia-smi)",
                            "sudo lspci -vvv | grep -E 'ReqRedir\\+|CmpltRedir\\+'   # ACS on that node"),
                    References.RUNBOOK));
        }
        long sendNo = ib.stream().filter(c -> !c.gdr() && c.direction() == Direction.SEND).count();
        long recvNo = ib.stream().filter(c -> !c.gdr() && c.direction() == Direction.RECEIVE).count();
        List<String> ev = Lines.describe(ib.stream().filter(c -> !c.gdr()).toList(), 6);
        if (recvNo == 0 && sendNo > 0) {
            return List.of(finding(Severity.INFO, "GPUDirect RDMA on the receive side only",
                    "NCCL reads from GPU memory for sends only when NCCL_NET_GDR_READ is on (default for compute"
                            + " capability >= 8.0). On older GPUs this is expected.",
                    ev, List.of("export NCCL_NET_GDR_READ=1   # to try GDR on sends; compare busbw"),
                    References.ENV_DOC));
        }
        return List.of(finding(Severity.ERROR, "GPUDirect RDMA on some connections only",
                "Some receive connections stage through host memory while others use GDRDMA: NIC-GPU distance"
                        + " differs by GPU (NCCL_NET_GDR_LEVEL) or a NIC lacks peer memory support.",
                ev, List.of("nvidia-smi topo -m   # GPUs far from their NIC", "export NCCL_TOPO_DUMP_FILE="
                        + "/tmp/topo.xml   # and read the gdr attributes"), References.RUNBOOK));
    }
}
