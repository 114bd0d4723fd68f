package dev.ncclbench.fleet;

import dev.ncclbench.output.PrometheusText;

import java.util.Locale;

/** Prometheus text exposition (for a node exporter's textfile collector or a push gateway). */
final class FleetPrometheus {
    private FleetPrometheus() {
    }

    static String render(FleetDocument doc) {
        Verdicts v = doc.verdicts();
        PrometheusText p = new PrometheusText();
        p.gauge("ncclbench_fleet_node_bad", "1 when the search found the node slow or unreachable.");
        for (NodeVerdict n : v.nodes()) {
            p.sample("ncclbench_fleet_node_bad", n.bad() ? 1 : 0,
                    "host", doc.hosts().get(n.rank()), "verdict", n.status().label);
        }
        p.gauge("ncclbench_fleet_link_bad", "1 when the search found the link between two good nodes slow.");
        for (LinkVerdict l : v.links()) {
            p.sample("ncclbench_fleet_link_bad", l.status() == LinkVerdict.Status.BAD ? 1 : 0,
                    "a", doc.hosts().get(l.a()), "b", doc.hosts().get(l.b()),
                    "verdict", l.status().name().toLowerCase(Locale.ROOT));
        }
        p.gauge("ncclbench_fleet_link_busbw_gbps", "The link's last pair result, GB/s.");
        for (LinkVerdict l : v.links()) {
            if (Double.isFinite(l.busbw())) {
                p.sample("ncclbench_fleet_link_busbw_gbps", l.busbw(), "a", doc.hosts().get(l.a()), "b", doc.hosts().get(l.b()));
            }
        }
        if (doc.rails() != null) {
            p.gauge("ncclbench_fleet_rail_bad", "1 when the rail round found the node's rail slow or down.");
            for (RailVerdict r : doc.rails().verdicts()) {
                p.sample("ncclbench_fleet_rail_bad", r.bad() ? 1 : 0, "host", doc.hosts().get(r.rank()),
                        "rail", String.valueOf(r.rail()), "nic", r.nic(), "verdict", r.status().name().toLowerCase(Locale.ROOT));
            }
            p.gauge("ncclbench_fleet_rail_busbw_gbps", "The rail's best result in the rail round, GB/s.");
            for (RailVerdict r : doc.rails().verdicts()) {
                if (Double.isFinite(r.busbw())) {
                    p.sample("ncclbench_fleet_rail_busbw_gbps", r.busbw(), "host", doc.hosts().get(r.rank()),
                            "rail", String.valueOf(r.rail()), "nic", r.nic());
                }
            }
        }
        p.gauge("ncclbench_fleet_rounds", "Rounds the search took.");
        p.sample("ncclbench_fleet_rounds", doc.result().rounds());
        p.gauge("ncclbench_fleet_undecided", "Nodes and links the search could not decide.");
        p.sample("ncclbench_fleet_undecided", v.undecided().size());
        return p.toString();
    }
}
