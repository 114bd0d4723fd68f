package dev.ncclbench.doctor.compare;

import dev.ncclbench.doctor.predict.InterfacePredictor;
import dev.ncclbench.doctor.predict.LinkRates;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.NetLink;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Interface names or rates differ between nodes: one NCCL_SOCKET_IFNAME cannot suit all of them, and NCCL's default
 * picks a different NIC per node.
 */
public final class InterfacesDiffer extends BaseRule<HostSet> {
    public InterfacesDiffer() {
        super("NODES-INTERFACES-DIFFER", Severity.WARNING,
                "interface names, rates or NCCL's predicted bootstrap interface differ between nodes");
    }

    @Override
    public List<Finding> check(HostSet f) {
        List<Finding> out = new ArrayList<>();
        List<Set<String>> names = new ArrayList<>();
        List<String> ev = new ArrayList<>();
        for (int i = 0; i < f.hosts().size(); i++) {
            Set<String> n = new TreeSet<>();
            for (NetLink l : f.hosts().get(i).interfaces()) {
                if (!l.loopback() && l.running()) {
                    n.add(l.name());
                }
            }
            names.add(n);
            ev.add(f.name(i) + ": " + n);
        }
        if (names.stream().distinct().count() > 1) {
            out.add(finding(Severity.WARNING, "the nodes have different running interfaces", "An NCCL_SOCKET_IFNAME that names one node's"
                    + " interface matches nothing on another, whose ranks then die in bootstrap.", ev,
                    List.of("use a prefix all nodes share, or per-node launch settings"), References.ENV_DOC));
        }
        Set<String> common = new TreeSet<>(names.get(0));
        names.forEach(common::retainAll);
        for (String n : common) {
            List<String> rates = new ArrayList<>();
            for (HostSnapshot h : f.hosts()) {
                rates.add(LinkRates.of(h, n).map(LinkRates.Rate::text).orElse(null));
            }
            if (rates.stream().filter(Objects::nonNull).distinct().count() > 1) {
                List<String> rev = new ArrayList<>();
                for (int i = 0; i < rates.size(); i++) {
                    rev.add(f.name(i) + ": " + n + " " + Objects.toString(rates.get(i), "rate unknown"));
                }
                out.add(finding(Severity.WARNING, n + " runs at different rates on different nodes", "The slowest node sets"
                        + " the pace of every ring through it: a degraded link (cable, autonegotiation) shows here first.", rev,
                        List.of("ethtool " + n + "   # on the slow node; check the cable and the switch port"), References.RUNBOOK));
            }
        }
        List<String> boots = new ArrayList<>();
        for (int i = 0; i < f.hosts().size(); i++) {
            boots.add(f.name(i) + ": " + InterfacePredictor.predict(f.hosts().get(i)).bootstrap().iface());
        }
        if (f.hosts().stream().map(h -> Objects.toString(InterfacePredictor.predict(h).bootstrap().iface())).distinct().count() > 1) {
            out.add(finding(Severity.WARNING, "NCCL will bootstrap on different interfaces on different nodes (" + String.join("; ", boots) + ")",
                    "Ranks advertise addresses on networks the others may not route to; pin NCCL_SOCKET_IFNAME for the job.",
                    boots, List.of("export NCCL_SOCKET_IFNAME=<the data network's interface prefix>"), References.ENV_DOC));
        }
        return out;
    }
}
