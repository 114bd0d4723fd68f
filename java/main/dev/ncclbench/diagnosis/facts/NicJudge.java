package dev.ncclbench.diagnosis.facts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The verdict per NIC of one host and network: see {@link NicLoads} for when a host's NICs can be judged. */
final class NicJudge {
    private NicJudge() {
    }

    /** @param unjudged why none of the host's NICs can be judged, or "" */
    static List<NicLoad> judge(List<NicLoad> rows, int localRanks, String unjudged, NicLoads.Policy policy) {
        if (!unjudged.isEmpty()) {
            return mark(rows, unjudged);
        }
        Map<String, List<NicLoad>> groups = new LinkedHashMap<>();
        rows.stream().filter(NicLoad::listed).forEach(r -> groups.computeIfAbsent(r.linkLayer(),
                k -> new ArrayList<>()).add(r));
        Map<Integer, NicLoad> judged = new LinkedHashMap<>();
        groups.values().forEach(g -> group(g, localRanks, policy).forEach(r -> judged.put(r.index(), r)));
        List<NicLoad> out = new ArrayList<>();
        for (NicLoad r : rows) {
            out.add(r.listed() ? judged.get(r.index())
                    : r.judged(NicLoad.UNJUDGED, "not in the NICs this host listed"));
        }
        return out;
    }

    private static List<NicLoad> group(List<NicLoad> g, int localRanks, NicLoads.Policy policy) {
        if (g.size() < 2) {
            return mark(g, "no sibling port of its link layer to compare with");
        }
        boolean coll = g.stream().anyMatch(r -> r.channels() > 0);
        if (!coll && policy.spreads()) {
            return mark(g, "NCCL_NETDEVS_POLICY=" + policy.value() + " lets each GPU spread its send/recv channels "
                    + "over several NICs by channel number: uneven counts are what it asks for");
        }
        String kind = coll ? "NET channels" : "send/recv NET channels";
        int ports = g.stream().mapToInt(NicJudge::ports).sum();
        int total = g.stream().mapToInt(r -> value(r, coll)).sum();
        if (total == 0) {
            return mark(g, "no port of its link layer carried " + kind);
        }
        int feeders = coll && policy.max() > 0 ? policy.max() * localRanks : localRanks;
        if (feeders < ports) {
            return fewerFeeders(g, coll, kind, total, ports, feeders, String.format(Locale.ROOT, "%d rank(s) of this "
                    + "host logged %s for %d port(s)%s: a port with no GPU of the job near it stays idle", localRanks,
                    kind, ports, coll && policy.max() > 0 ? " under NCCL_NETDEVS_POLICY=" + policy.value() : ""));
        }
        if (total < 2 * ports) {
            return mark(g, String.format(Locale.ROOT, "%d %s over %d ports: too few for every port to get some",
                    total, kind, ports));
        }
        long zero = g.stream().filter(r -> r.allChannels() == 0).count();
        List<NicLoad> out = new ArrayList<>();
        for (NicLoad r : g) {
            int v = value(r, coll);
            List<NicLoad> others = g.stream().filter(o -> o != r).toList();
            String siblings = "its siblings " + range(others, coll);
            // its share: what a sibling that carried anything carried per port (the median), times its ports
            double[] perPort = others.stream().filter(o -> value(o, coll) > 0)
                    .mapToDouble(o -> (double) value(o, coll) / ports(o)).sorted().toArray();
            double share = perPort.length == 0 ? 0 : ports(r) * (perPort.length % 2 == 1 ? perPort[perPort.length / 2]
                    : (perPort[perPort.length / 2 - 1] + perPort[perPort.length / 2]) / 2);
            if (r.allChannels() == 0 && zero < g.size() - zero && perPort.length > 0 && perPort[0] >= 2) {
                out.add(r.judged(NicLoad.UNUSED, String.format(Locale.ROOT, "carried 0 of %d %s; %s", total, kind,
                        siblings)));
            } else if (share > 0 && v >= NicLoads.OVER * share && v >= share + 2) {
                out.add(r.judged(NicLoad.OVERLOADED, String.format(Locale.ROOT, "carried %d of %d %s, about twice"
                        + " its share of %s; %s", v, total, kind, number(share), siblings)));
            } else {
                out.add(r.judged(NicLoad.OK, String.format(Locale.ROOT, "carried %d of %d %s; %s", v, total, kind,
                        siblings)));
            }
        }
        return out;
    }

    /**
     * More ports than the logged ranks can feed (a storage port listed beside the rails, a 4-GPU job on 8 NICs): up to
     * ports - feeders idle ports are expected and nobody is named; more idle ports than that prove a rail left idle,
     * so the idle ports are named together (the sentence says one of them may be a port no GPU is near).
     */
    private static List<NicLoad> fewerFeeders(List<NicLoad> g, boolean coll, String kind, int total, int ports,
                                              int feeders, String why) {
        List<NicLoad> idle = g.stream().filter(r -> r.allChannels() == 0).toList();
        List<NicLoad> carrying = g.stream().filter(r -> value(r, coll) > 0).toList();
        int idlePorts = idle.stream().mapToInt(NicJudge::ports).sum();
        int least = carrying.stream().mapToInt(r -> value(r, coll)).min().orElse(0);
        if (idlePorts <= ports - feeders || least < 2 || total < 2 * (ports - idlePorts)) {
            return mark(g, why);
        }
        String names = String.join(", ", idle.stream().map(NicLoad::nic).toList());
        String unused = String.format(Locale.ROOT, "carried 0 of %d %s; %d of %d ports idle where %d GPU(s) leave at"
                + " most %d idle (%s: one of them may be a port no GPU is near); its siblings %s", total, kind,
                idlePorts, ports, feeders, ports - feeders, names, range(carrying, coll));
        return g.stream().map(r -> r.allChannels() == 0 ? r.judged(NicLoad.UNUSED, unused) : r.judged(NicLoad.OK,
                String.format(Locale.ROOT, "carried %d of %d %s", value(r, coll), total, kind))).toList();
    }

    /** "4 each", "2-6". */
    private static String range(List<NicLoad> rs, boolean coll) {
        int lo = rs.stream().mapToInt(r -> value(r, coll)).min().orElse(0);
        int hi = rs.stream().mapToInt(r -> value(r, coll)).max().orElse(0);
        return lo == hi ? lo + (rs.size() > 1 ? " each" : "") : lo + "-" + hi;
    }

    private static String number(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }

    private static int value(NicLoad r, boolean coll) {
        return coll ? r.channels() : r.p2pChannels();
    }

    /** A merged NIC ("mlx5_0+mlx5_1") is two ports: its share is two ports' worth. */
    static int ports(NicLoad r) {
        return r.nic().split("\\+").length;
    }

    private static List<NicLoad> mark(List<NicLoad> rows, String why) {
        return rows.stream().map(r -> r.judged(NicLoad.UNJUDGED, why)).toList();
    }
}
