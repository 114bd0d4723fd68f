package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.NicLines;
import dev.ncclbench.diagnosis.facts.NicLoad;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** A NIC NCCL listed on a host carried no channel while its sibling ports did: that rail's bandwidth is lost. */
public final class NetNicUnused extends BaseRule<Facts> {
    public NetNicUnused() {
        super("NET-NIC-UNUSED", Severity.WARNING,
                "a NIC NCCL listed carried no channel while its sibling ports on that host did");
    }

    @Override
    public List<Finding> check(Facts f) {
        List<NicLoad> unused = NicLines.with(f.nicLoads(), NicLoad.UNUSED);
        if (unused.isEmpty()) {
            return List.of();
        }
        return List.of(finding(Severity.WARNING, "NIC listed but carrying nothing: " + NicLines.names(unused),
                NicLines.sentence(unused.get(0)) + ". NCCL listed the port at init, but its topology search put no"
                        + " channel on it: the GPUs next to it send through their other NICs, so the job runs on one"
                        + " rail less. Usual causes: the port trained down (NCCL prefers faster NICs), it is further"
                        + " from the GPUs than its siblings (another PCI switch or socket), or it is a storage or"
                        + " management port NCCL_IB_HCA lets in.",
                NicLines.hosts(f.nicLoads(), unused),
                List.of("ncclbench doctor   # on that host: the rail table gives each port's rate, state and GPU",
                        "ibstat " + unused.get(0).nic().split("[+:]")[0] + "   # Rate and Physical state of that port",
                        "NCCL_TOPO_DUMP_FILE=/tmp/topo.xml   # rerun: where NCCL places the NIC in its topology",
                        "NCCL_IB_HCA==mlx5_0:1,...   # leave a storage port out on purpose (leading =: exact names)"),
                References.ENV_DOC + "#nccl-ib-hca"));
    }
}
