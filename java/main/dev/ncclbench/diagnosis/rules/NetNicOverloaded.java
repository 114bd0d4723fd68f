package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.NicLines;
import dev.ncclbench.diagnosis.facts.NicLoad;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Severity;

import java.util.List;

/** A NIC carried about twice its share of a host's channels: another GPU's traffic moved onto it. */
public final class NetNicOverloaded extends BaseRule<Facts> {
    public NetNicOverloaded() {
        super("NET-NIC-OVERLOADED", Severity.WARNING,
                "a NIC carried about twice its share of its host's NET channels");
    }

    @Override
    public List<Finding> check(Facts f) {
        List<NicLoad> over = NicLines.with(f.nicLoads(), NicLoad.OVERLOADED);
        if (over.isEmpty()) {
            return List.of();
        }
        return List.of(finding(Severity.WARNING, "NIC carrying about twice its share: " + NicLines.names(over),
                NicLines.sentence(over.get(0)) + ". Two GPUs' channels share one port where their siblings have one"
                        + " each: that port's rail caps every ring through it at about half. Usual cause: the"
                        + " neighbouring port is down, trained down or left out (NCCL_IB_HCA), so its GPU moved"
                        + " to this NIC.",
                NicLines.hosts(f.nicLoads(), over),
                List.of("ncclbench doctor   # on that host: which rail's port is down, slow or excluded",
                        "ibstat   # every port's State, Physical state and Rate on that host"),
                References.ENV_DOC + "#nccl-ib-hca"));
    }
}
