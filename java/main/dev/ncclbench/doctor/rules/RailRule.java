package dev.ncclbench.doctor.rules;

import dev.ncclbench.doctor.predict.NicPort;
import dev.ncclbench.doctor.predict.PathType;
import dev.ncclbench.doctor.predict.Rail;
import dev.ncclbench.doctor.predict.RailTable;
import dev.ncclbench.doctor.predict.RailVerdict;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the rail rules share: each turns one {@link RailVerdict} of the rail table into findings, one per port (a NIC
 * two GPUs share is one finding naming both rails), with the sysfs files it rests on as evidence.
 */
abstract class RailRule extends BaseRule<HostEvidence> {
    private final RailVerdict verdict;

    RailRule(String id, Severity severity, String summary, RailVerdict verdict) {
        super(id, severity, summary, true);
        this.verdict = verdict;
    }

    /** Why it matters, for the finding's detail. */
    abstract String detail(Rail rail, Rail.Problem problem, NicPort port);

    /** What to run, in order; {@code port} is null for a problem of the rail as a whole. */
    abstract List<String> remedy(HostSnapshot s, Rail rail, Rail.Problem problem, NicPort port);

    /** How bad this one is (the rule's severity unless a case is milder). */
    Severity severity(Rail rail, Rail.Problem problem) {
        return severity();
    }

    /** Whether the problem is this rule's to report (another rule may say it better for the whole host). */
    boolean reports(RailTable table, Rail rail, Rail.Problem problem) {
        return true;
    }

    @Override
    public final List<Finding> check(HostEvidence host) {
        HostSnapshot s = host.snapshot();
        RailTable table = host.rails();
        Map<String, List<Rail>> byPort = new LinkedHashMap<>();
        Map<String, Rail.Problem> first = new LinkedHashMap<>();
        for (Rail r : table.rails()) {
            for (Rail.Problem p : r.problems()) {
                if (p.verdict() == verdict && reports(table, r, p)) {
                    String key = p.port() != null ? p.port() : "rail " + r.rail();
                    byPort.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
                    first.putIfAbsent(key, p);
                }
            }
        }
        List<Finding> out = new ArrayList<>();
        byPort.forEach((key, rails) -> {
            Rail r = rails.get(0);
            Rail.Problem p = first.get(key);
            NicPort port = p.port() == null ? null
                    : r.ports().stream().filter(q -> q.name().equals(p.port())).findFirst().orElse(null);
            String which = rails.size() == 1 ? r.label() : "rails " + String.join(", ",
                    rails.stream().map(x -> String.valueOf(x.rail())).toList()) + " (GPUs " + String.join(", ",
                    rails.stream().map(x -> x.gpu().busId()).toList()) + ")";
            out.add(finding(severity(r, p), which + ": " + p.why(), detail(r, p, port), evidence(r, port),
                    remedy(s, r, p, port), References.NET_DOC));
        });
        return out;
    }

    private static String distance(PathType d) {
        return d == null ? "distance unknown: a PCI path is missing" : d + ": " + d.meaning;
    }

    /** The pairing, then the port's own files. */
    static List<String> evidence(Rail r, NicPort port) {
        List<String> ev = new ArrayList<>();
        ev.add("GPU " + r.gpu().busId() + " (NUMA node " + (r.gpu().numaNode() == null ? "unknown" : r.gpu().numaNode())
                + ") -> " + (r.nic() == null ? "no NIC" : r.nic() + " (" + distance(r.distance()) + ")")
                + (r.ncclUses().isEmpty() ? "; NCCL uses none" : "; NCCL uses " + String.join(", ", r.ncclUses())
                + " (" + distance(r.ncclDistance()) + ")"));
        if (port == null) {
            return ev;
        }
        if (NicPort.IB.equals(port.transport())) {
            String dir = "/sys/class/infiniband/" + port.device() + "/ports/" + port.port();
            ev.add(dir + "/state: " + port.state());
            ev.add(dir + "/phys_state: " + port.physState());
            ev.add(dir + "/rate: " + port.rate().text());
            ev.add(dir + "/link_layer: " + port.linkLayer());
        } else {
            ev.add("/sys/class/net/" + port.device() + ": " + port.state() + ", speed "
                    + (port.netdevSpeedMbps() == null ? "unknown" : port.netdevSpeedMbps() + " Mb/s"));
        }
        if (port.pciAddress() != null) {
            ev.add(port.device() + " at PCI " + port.pciAddress() + (port.numaNode() == null ? "" : ", NUMA node "
                    + port.numaNode()));
        }
        return ev;
    }
}
