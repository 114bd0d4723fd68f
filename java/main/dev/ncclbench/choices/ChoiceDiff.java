package dev.ncclbench.choices;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Compares what NCCL decided in two runs. A choice only one side logged is unknown, never unchanged; two logs of
 * the same run give no change.
 */
public final class ChoiceDiff {
    private static final int MAX_HOSTS_NAMED = 3;

    private final NcclChoices b;
    private final NcclChoices a;
    private final List<Change> changes = new ArrayList<>();
    private final List<String> same = new ArrayList<>();
    private final List<String> unknown = new ArrayList<>();
    /** Hosts whose own GPUDirect RDMA changed while most hosts kept theirs. */
    private final List<String> gdrHosts = new ArrayList<>();

    private ChoiceDiff(NcclChoices before, NcclChoices after) {
        this.b = before;
        this.a = after;
    }

    /** Null on a side: that run has no NCCL log, so its choices are unknown. */
    public static Comparison compare(NcclChoices before, NcclChoices after) {
        return compare(before, after, "the BEFORE run", "the AFTER run");
    }

    /** As {@link #compare(NcclChoices, NcclChoices)}, naming the sides in the sentence for a side without a log. */
    public static Comparison compare(NcclChoices before, NcclChoices after, String beforeName, String afterName) {
        if (before == null || after == null) {
            return Comparison.unknown((before == null ? beforeName : afterName)
                    + " kept no NCCL log, so what NCCL chose there is unknown");
        }
        ChoiceDiff d = new ChoiceDiff(before, after);
        d.network();
        d.hosts();
        d.gdr();
        d.nics();
        d.intra();
        d.flag("nvls", "NVLS", before.nvls(), after.nvls(), 70, Effects.NVLS_ON, Effects.NVLS_OFF);
        d.flag("collnet", "CollNet", before.collnet(), after.collnet(), 65, Effects.COLLNET_ON, Effects.COLLNET_OFF);
        d.channels();
        d.flag("pxn", "PXN", before.pxn(), after.pxn(), 55, Effects.PXN_ON, Effects.PXN_OFF);
        d.tuning();
        d.version();
        d.env();
        d.changes.sort(Comparator.comparingInt(Change::weight).reversed());
        if (d.changes.isEmpty() && d.same.isEmpty()) {
            // nothing stated on both sides: that is not "no change"
            List<String> why = new ArrayList<>(List.of("no choice of NCCL's is stated in both logs (run both with"
                    + " NCCL_DEBUG=INFO)"));
            why.addAll(d.unknown);
            return new Comparison(d.job(), List.of(), List.of(), why, false);
        }
        return new Comparison(d.job(), d.changes, d.same, d.unknown, true);
    }

    private String job() {
        boolean nodes = b.nodes() != null && a.nodes() != null && !b.nodes().equals(a.nodes());
        boolean ranks = b.ranks() != null && a.ranks() != null && !b.ranks().equals(a.ranks());
        if (!nodes && !ranks) {
            return null;
        }
        return "different jobs: before " + size(b) + "; after " + size(a) + "; counts of pairs and NICs follow the"
                + " job, not only NCCL's choices";
    }

    private static String size(NcclChoices c) {
        List<String> p = new ArrayList<>();
        if (c.nodes() != null) {
            p.add(c.nodes() + (c.nodes() == 1 ? " node" : " nodes"));
        }
        if (c.ranks() != null) {
            p.add(c.ranks() + (c.ranks() == 1 ? " rank" : " ranks"));
        }
        return String.join(", ", p);
    }

    private void add(String fact, String what, String before, String after, String effect, String where, int weight) {
        changes.add(new Change(fact, what, before, after, effect, where, weight));
    }

    private void missing(String fact, Object before, Object after) {
        unknown.add(fact + ": not in the " + (before == null ? "BEFORE" : "AFTER") + " log");
    }

    /** The networks named by "Using network" lines, or by the NET routes when a log has none of those. */
    private static Set<String> networks(NcclChoices c) {
        Set<String> n = new TreeSet<>(c.networks());
        if (n.isEmpty()) {
            c.netRoutes().keySet().forEach(r -> n.add(r.substring(4).split("[/ ]")[0]));
        }
        return n;
    }

    private static boolean socketOnly(Set<String> nets) {
        return !nets.isEmpty() && nets.stream().allMatch(n -> n.equalsIgnoreCase("Socket"));
    }

    private void network() {
        Set<String> nb = networks(b);
        Set<String> na = networks(a);
        if (nb.isEmpty() || na.isEmpty()) {
            if (nb.isEmpty() != na.isEmpty()) {
                missing("network", nb.isEmpty() ? null : nb, na.isEmpty() ? null : na);
            }
            return;
        }
        if (nb.equals(na)) {
            same.add("network " + String.join("+", na));
            return;
        }
        String effect = socketOnly(na) ? Effects.TO_SOCKET : socketOnly(nb) ? Effects.FROM_SOCKET
                : Effects.OTHER_NETWORK;
        add("network", "NCCL now on NET/" + String.join("+", na), routes(b, "NET/" + String.join("+", nb)),
                routes(a, "NET/" + String.join("+", na)), effect, null, 100);
    }

    /** The routes as printed ("NET/IB/0/GDRDMA on 2 pairs"), or the fallback when the log has no NET lines. */
    private static String routes(NcclChoices c, String fallback) {
        if (c.netRoutes().isEmpty()) {
            return fallback;
        }
        List<String> p = new ArrayList<>();
        boolean one = c.netRoutes().size() == 1;
        // a pair whose two sides differ is named by its route, not by one side's line
        c.netRoutes().forEach((route, n) -> p.add((route.contains(" only") ? route
                : c.netExamples().getOrDefault(route, route)) + (one ? "" : " on " + n + (n == 1 ? " pair" : " pairs"))));
        return String.join(", ", p);
    }

    /** Hosts whose own route changed while most hosts kept theirs: "NCCL now on NET/Socket on node7". */
    private void hosts() {
        if (b.hostRoute() == null || a.hostRoute() == null) {
            return;
        }
        Map<String, List<String>> moved = new LinkedHashMap<>();
        Set<String> names = new TreeSet<>(b.hostsOther().keySet());
        names.addAll(a.hostsOther().keySet());
        for (String h : names) {
            String rb = b.hostsOther().getOrDefault(h, b.hostRoute());
            String ra = a.hostsOther().getOrDefault(h, a.hostRoute());
            if (!rb.equals(ra) && (b.hostRoute().equals(a.hostRoute()) || a.hostsOther().containsKey(h))) {
                moved.computeIfAbsent(rb + '\n' + ra, k -> new ArrayList<>()).add(h);
            }
        }
        moved.forEach((k, hosts) -> {
            String rb = k.substring(0, k.indexOf('\n'));
            String ra = k.substring(k.indexOf('\n') + 1);
            boolean netChanged = !rb.replace("/GDRDMA", "").equals(ra.replace("/GDRDMA", ""));
            if (!netChanged) {
                gdrHosts.addAll(hosts); // the pair counts say it; these hosts say where
                return;
            }
            String effect = ra.contains("Socket") ? Effects.TO_SOCKET : rb.contains("Socket") ? Effects.FROM_SOCKET
                    : Effects.OTHER_NETWORK;
            add("network", "NCCL now on " + ra, rb, ra, effect, named(hosts), 100);
        });
    }

    private static String named(List<String> hosts) {
        return hosts.size() <= MAX_HOSTS_NAMED ? String.join(", ", hosts)
                : String.join(", ", hosts.subList(0, MAX_HOSTS_NAMED)) + " and " + (hosts.size() - MAX_HOSTS_NAMED)
                + " more";
    }

    private void gdr() {
        int tb = b.netPairs();
        int ta = a.netPairs();
        if (tb == 0 || ta == 0) {
            if ((tb == 0) != (ta == 0) && !socketOnly(networks(b)) && !socketOnly(networks(a))) {
                missing("GPUDirect RDMA per pair", tb == 0 ? null : tb, ta == 0 ? null : ta);
            }
            return;
        }
        if (socketOnly(networks(b)) || socketOnly(networks(a))) {
            return; // sockets never use GPUDirect RDMA: the network change says it all
        }
        int gb = b.gdrPairs();
        int ga = a.gdrPairs();
        if ((long) gb * ta == (long) ga * tb && b.netRoutes().keySet().equals(a.netRoutes().keySet())) {
            same.add("GPUDirect RDMA on " + ga + " of " + ta + " pairs");
            return;
        }
        boolean fewer = (long) ga * tb < (long) gb * ta;
        String what;
        if (tb == ta) {
            int n = Math.abs(gb - ga);
            what = "GPUDirect RDMA " + (fewer ? "off" : "on") + " on " + (n == 0 ? "some" : n) + " of " + ta
                    + " pairs";
        } else {
            what = "GPUDirect RDMA on " + ga + " of " + ta + " pairs (was " + gb + " of " + tb + ")";
        }
        String effect;
        if (fewer) {
            boolean sendOnly = a.netRoutes().keySet().stream().anyMatch(r -> r.endsWith("send only"));
            boolean recvOnly = a.netRoutes().keySet().stream().anyMatch(r -> r.endsWith("receive only"));
            effect = (sendOnly && !recvOnly ? "receive" : recvOnly && !sendOnly ? "send" : "send and receive")
                    + Effects.GDR_OFF;
        } else {
            effect = Effects.GDR_ON;
        }
        add("gdr", what, routes(b, ""), routes(a, ""), effect, gdrHosts.isEmpty() ? null : named(gdrHosts), 90);
    }

    private void nics() {
        Integer ub = b.nicsUsed();
        Integer ua = a.nicsUsed();
        List<String> lb = b.nics();
        List<String> la = a.nics();
        if (ub == null || ua == null) {
            if (lb.isEmpty() || la.isEmpty()) {
                if (lb.isEmpty() != la.isEmpty() && (ub != null || ua != null)) {
                    missing("NICs", lb.isEmpty() ? null : lb, la.isEmpty() ? null : la);
                }
                return;
            }
            ub = lb.size();
            ua = la.size();
        }
        if (ub.equals(ua) && (lb.isEmpty() || la.isEmpty() || lb.equals(la))) {
            same.add(ua + (ua == 1 ? " NIC" : " NICs") + (la.isEmpty() ? "" : " (" + String.join(" ", la) + ")"));
            return;
        }
        String what = ua < ub ? "NCCL now uses " + ua + " of " + ub + " NICs"
                : ua > ub ? "NCCL now uses " + ua + " NICs (was " + ub + ")" : "NCCL now uses other NICs";
        String effect = ua < ub ? (a.env().containsKey("NCCL_NETDEVS_POLICY") ? Effects.FEWER_NICS_POLICY
                : Effects.FEWER_NICS) : ua > ub ? Effects.MORE_NICS : Effects.OTHER_NICS;
        add("nics", what, nicList(ub, lb), nicList(ua, la), effect, null, 80);
    }

    private static String nicList(int used, List<String> listed) {
        return used + (used == 1 ? " NIC" : " NICs") + (listed.isEmpty() ? "" : " (NCCL listed " + String.join(" ",
                listed) + ")");
    }

    private void intra() {
        Map<String, Integer> ib = b.intra();
        Map<String, Integer> ia = a.intra();
        if (ib.isEmpty() || ia.isEmpty()) {
            if (ib.isEmpty() != ia.isEmpty() && b.nodes() != null && a.nodes() != null
                    && Objects.equals(b.ranks(), a.ranks()) && (b.ranks() == null || b.ranks() > b.nodes())) {
                missing("intra-node transport", ib.isEmpty() ? null : ib, ia.isEmpty() ? null : ia);
            }
            return;
        }
        if (ib.keySet().equals(ia.keySet())) {
            same.add("intra-node " + String.join("+", ia.keySet()));
            return;
        }
        boolean shmB = ib.containsKey("SHM");
        boolean shmA = ia.containsKey("SHM");
        String effect = shmA && !shmB ? Effects.TO_SHM : shmB && !shmA ? Effects.FROM_SHM : Effects.P2P_MODE;
        add("intra", "intra-node pairs now via " + String.join(" + ", ia.keySet()), counted(ib), counted(ia), effect,
                null, shmA != shmB ? 75 : 40);
    }

    private static String counted(Map<String, Integer> m) {
        List<String> p = new ArrayList<>();
        m.forEach((k, n) -> p.add(k + " on " + n + (n == 1 ? " pair" : " pairs")));
        return String.join(", ", p);
    }

    private void flag(String fact, String name, Boolean before, Boolean after, int weight, String on, String off) {
        if (before == null || after == null) {
            if ((before == null) != (after == null)) {
                missing(name, before, after);
            }
            return;
        }
        if (before.equals(after)) {
            same.add(name + (after ? " on" : " off"));
            return;
        }
        add(fact, name + (after ? " now on" : " now off"), before ? "on" : "off", after ? "on" : "off",
                after ? on : off, null, weight);
    }

    private void channels() {
        Integer cb = b.channels();
        Integer ca = a.channels();
        if (cb == null || ca == null) {
            if ((cb == null) != (ca == null)) {
                missing("channels", cb, ca);
            }
            return;
        }
        if (cb.equals(ca)) {
            same.add(ca + " channels");
            return;
        }
        add("channels", ca + " channels (was " + cb + ")", cb + " coll channels", ca + " coll channels",
                ca < cb ? Effects.FEWER_CHANNELS : Effects.MORE_CHANNELS, null, 60);
    }

    private void tuning() {
        if (b.tuning().isEmpty() || a.tuning().isEmpty()) {
            if (b.tuning().isEmpty() != a.tuning().isEmpty()) {
                missing("algorithm and protocol (NCCL_DEBUG_SUBSYS=TUNING)", b.tuning().isEmpty() ? null : 1,
                        a.tuning().isEmpty() ? null : 1);
            }
            return;
        }
        TuningDiff t = new TuningDiff(b.tuning(), a.tuning());
        changes.addAll(t.changes());
        if (t.changes().isEmpty() && t.compared() > 0) {
            same.add("algorithm and protocol at " + t.compared() + (t.compared() == 1 ? " size" : " sizes"));
        }
    }

    private void version() {
        if (b.ncclVersion() == null || a.ncclVersion() == null) {
            if ((b.ncclVersion() == null) != (a.ncclVersion() == null)) {
                missing("NCCL version", b.ncclVersion(), a.ncclVersion());
            }
            return;
        }
        if (b.ncclVersion().equals(a.ncclVersion())) {
            same.add("NCCL " + a.ncclVersion());
            return;
        }
        add("version", "NCCL " + a.ncclVersion(), b.ncclVersion(), a.ncclVersion(), Effects.VERSION, null, 20);
    }

    private void env() {
        Set<String> names = new TreeSet<>(b.env().keySet());
        names.addAll(a.env().keySet());
        int kept = 0;
        for (String n : names) {
            String vb = b.env().get(n);
            String va = a.env().get(n);
            if (Objects.equals(vb, va)) {
                kept++;
                continue;
            }
            add("env", n + (va == null ? " no longer set" : "=" + va), vb == null ? "(not set)" : n + "=" + vb,
                    va == null ? "(not set)" : n + "=" + va, Effects.setting(n), null, 10);
        }
        if (kept > 0) {
            same.add(kept + " NCCL_ " + (kept == 1 ? "setting" : "settings"));
        }
    }
}
