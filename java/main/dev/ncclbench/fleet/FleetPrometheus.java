package dev.ncclbench.fleet;

import java.util.Locale;

/** Prometheus text exposition (for a node exporter's textfile collector or a push gateway). */
final class FleetPrometheus {
    private FleetPrometheus() {
    }

    static String render(FleetDocument doc) {
        Verdicts v = doc.verdicts();
        StringBuilder b = new StringBuilder();
        b.append("# HELP ncclbench_fleet_node_bad 1 when the search found the node slow or unreachable.\n");
        b.append("# TYPE ncclbench_fleet_node_bad gauge\n");
        for (NodeVerdict n : v.nodes()) {
            b.append("ncclbench_fleet_node_bad{host=\"").append(label(doc.hosts().get(n.rank()))).append("\",verdict=\"")
                    .append(n.status().label).append("\"} ").append(n.bad() ? 1 : 0).append('\n');
        }
        b.append("# HELP ncclbench_fleet_link_bad 1 when the search found the link between two good nodes slow.\n");
        b.append("# TYPE ncclbench_fleet_link_bad gauge\n");
        for (LinkVerdict l : v.links()) {
            b.append("ncclbench_fleet_link_bad{").append(pair(doc, l)).append(",verdict=\"")
                    .append(l.status().name().toLowerCase(Locale.ROOT)).append("\"} ")
                    .append(l.status() == LinkVerdict.Status.BAD ? 1 : 0).append('\n');
        }
        b.append("# HELP ncclbench_fleet_link_busbw_gbps The link's last pair result, GB/s.\n");
        b.append("# TYPE ncclbench_fleet_link_busbw_gbps gauge\n");
        for (LinkVerdict l : v.links()) {
            if (Double.isFinite(l.busbw())) {
                b.append("ncclbench_fleet_link_busbw_gbps{").append(pair(doc, l)).append("} ")
                        .append(String.format(Locale.ROOT, "%.6g", l.busbw())).append('\n');
            }
        }
        b.append("# HELP ncclbench_fleet_rounds Rounds the search took.\n# TYPE ncclbench_fleet_rounds gauge\n");
        b.append("ncclbench_fleet_rounds ").append(doc.result().rounds()).append('\n');
        b.append("# HELP ncclbench_fleet_undecided Nodes and links the search could not decide.\n");
        b.append("# TYPE ncclbench_fleet_undecided gauge\n");
        b.append("ncclbench_fleet_undecided ").append(v.undecided().size()).append('\n');
        return b.toString();
    }

    private static String pair(FleetDocument doc, LinkVerdict l) {
        return "a=\"" + label(doc.hosts().get(l.a())) + "\",b=\"" + label(doc.hosts().get(l.b())) + "\"";
    }

    private static String label(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
