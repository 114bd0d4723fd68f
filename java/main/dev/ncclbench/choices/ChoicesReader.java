package dev.ncclbench.choices;

import dev.ncclbench.Redactor;
import dev.ncclbench.nccllog.Networks;
import dev.ncclbench.nccllog.Direction;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;
import dev.ncclbench.nccllog.NcclLogEvidence.HostFacts;
import dev.ncclbench.nccllog.NcclLogEvidence.HostNet;
import dev.ncclbench.nccllog.NcclLogEvidence.Mention;
import dev.ncclbench.nccllog.Transport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Reads {@link NcclChoices} from what the log reader extracted: every fact from the one item that states it. */
public final class ChoicesReader {
    private ChoicesReader() {
    }

    public static NcclChoices of(NcclLogEvidence e) {
        // sorted, not first-seen: the order lines of several processes interleave in differs from run to run
        Set<String> versions = new java.util.TreeSet<>();
        e.ncclVersions().forEach(v -> versions.add(v.version()));
        Set<String> networks = new java.util.TreeSet<>();
        e.networks().stream().filter(m -> m.kind().equals("network")).forEach(m -> networks.add(m.value()));
        Map<String, Integer> nets = new TreeMap<>();
        Map<String, String> examples = new TreeMap<>();
        Map<String, Integer> intra = new TreeMap<>();
        netPairs(e.connections(), nets, examples);
        intraPairs(e.connections(), intra);
        Boolean pxn = pxn(e);
        return new NcclChoices(versions.isEmpty() ? null : String.join(", ", versions), nodes(e), ranks(e),
                List.copyOf(networks), nets, examples, hostRoute(e), hostsOther(e), nics(e, nets.keySet()),
                nicsUsed(e.connections()), channels(e), intra, pxn, nvls(e), collnet(e), tuning(e), env(e),
                (int) e.processes().stream().map(pr -> pr.firstLine().file()).distinct().count());
    }

    /**
     * What one node's logs say, for {@link ChoicesMerge}: as {@link #of}, with every host's own route in hostsOther
     * (hostRoute left null), since which route most hosts took is only known once every node's choices are in.
     */
    public static NcclChoices ofNode(NcclLogEvidence e) {
        NcclChoices c = of(e);
        Map<String, String> routes = new TreeMap<>();
        for (HostFacts h : e.hostFacts()) {
            if (!h.host().isEmpty() && !h.networks().isEmpty()) {
                routes.put(h.host(), routeOf(h));
            }
        }
        return new NcclChoices(c.ncclVersion(), c.nodes(), c.ranks(), c.networks(), c.netRoutes(), c.netExamples(),
                null, routes, c.nics(), c.nicsUsed(), c.channels(), c.intra(), c.pxn(), c.nvls(), c.collnet(),
                c.tuning(), c.env(), c.logFiles());
    }

    /** "NET/IB", with "/GDRDMA" when every side of the pair used it; one side only is said. */
    private static void netPairs(List<Connection> connections, Map<String, Integer> routes,
                                 Map<String, String> examples) {
        Map<Long, boolean[]> gdr = new LinkedHashMap<>(); // pair -> {seen send, send gdr, seen recv, recv gdr}
        Map<Long, Connection> first = new HashMap<>();
        Map<Long, String> name = new HashMap<>();
        for (Connection c : connections) {
            if (c.transport() != Transport.NET) {
                continue;
            }
            long pair = ((long) c.fromRank() << 32) | (c.toRank() & 0xffffffffL);
            boolean[] g = gdr.computeIfAbsent(pair, k -> new boolean[]{false, true, false, true});
            int at = c.direction() == Direction.RECEIVE ? 2 : 0;
            g[at] = true;
            g[at + 1] &= c.gdr();
            first.putIfAbsent(pair, c);
            name.merge(pair, c.netName(), (a, b) -> a.equals(b) ? a : a + "+" + b);
        }
        gdr.forEach((pair, g) -> {
            boolean send = !g[0] || g[1];
            boolean recv = !g[2] || g[3];
            String net = "NET/" + name.get(pair);
            String route = Networks.isSocket(name.get(pair)) ? net
                    : send && recv ? net + "/GDRDMA" : send && g[0] ? net + "/GDRDMA send only"
                    : recv && g[2] ? net + "/GDRDMA receive only" : net;
            routes.merge(route, 1, Integer::sum);
            examples.putIfAbsent(route, printed(first.get(pair)));
        });
    }

    /** The connection as NCCL printed its route: NET/IB/0(3)/GDRDMA. */
    private static String printed(Connection c) {
        return "NET/" + c.netName() + '/' + c.netDev() + (c.proxyRank() >= 0 ? "(" + c.proxyRank() + ")" : "")
                + (c.gdr() ? "/GDRDMA" : "");
    }

    private static void intraPairs(List<Connection> connections, Map<String, Integer> intra) {
        Map<Long, String> pairs = new LinkedHashMap<>();
        for (Connection c : connections) {
            String kind = switch (c.transport()) {
                case P2P -> "P2P/" + p2pMode(c.detail());
                case SHM -> "SHM";
                default -> null;
            };
            if (kind != null) {
                pairs.putIfAbsent(((long) c.fromRank() << 32) | (c.toRank() & 0xffffffffL), kind);
            }
        }
        pairs.values().forEach(k -> intra.merge(k, 1, Integer::sum));
    }

    /** CUMEM, IPC or direct pointer: how peers map each other's buffers, not the read/write flavour. */
    static String p2pMode(String detail) {
        if (detail.contains("CUMEM")) {
            return "CUMEM";
        }
        if (detail.contains("IPC")) {
            return "IPC";
        }
        return detail.startsWith("direct pointer") ? "direct pointer" : detail.isEmpty() ? "?" : detail;
    }

    private static Integer nodes(NcclLogEvidence e) {
        int n = -1;
        for (Mention m : e.topology()) {
            if (m.kind().equals("nodes")) {
                n = Math.max(n, Integer.parseInt(m.value()));
            }
        }
        if (n < 0 && e.hosts().size() > 1) {
            n = e.hosts().size(); // 2.18 prints no nNodes: the hosts that logged are a floor
        }
        return n < 0 ? null : n;
    }

    private static Integer ranks(NcclLogEvidence e) {
        int n = e.ranks().stream().mapToInt(NcclLogEvidence.RankInfo::nranks).max().orElse(-1);
        for (Mention m : e.topology()) {
            if (m.kind().equals("ranks")) {
                n = Math.max(n, Integer.parseInt(m.value()));
            }
        }
        return n < 0 ? null : n;
    }

    /** The route of one host's NET lines: its network with /GDRDMA when all were, "mixed" when some were. */
    private static String routeOf(HostFacts h) {
        List<String> parts = new ArrayList<>();
        for (HostNet n : h.networks()) {
            String net = "NET/" + n.network();
            parts.add(Networks.isSocket(n.network()) || n.gdrLines() == 0 ? net
                    : n.otherLines() == 0 ? net + "/GDRDMA" : net + "/GDRDMA on some lines");
        }
        return String.join(" + ", parts);
    }

    /** The route most hosts took; hosts without NET lines do not vote. Null on one node. */
    private static String hostRoute(NcclLogEvidence e) {
        Map<String, Integer> votes = new HashMap<>();
        String best = null;
        for (HostFacts h : e.hostFacts()) {
            if (h.host().isEmpty() || h.networks().isEmpty()) {
                continue;
            }
            votes.merge(routeOf(h), 1, Integer::sum);
        }
        for (var v : new TreeMap<>(votes).entrySet()) {
            if (best == null || v.getValue() > votes.get(best)) {
                best = v.getKey(); // a tie goes to the first route by name, whatever order the hosts logged in
            }
        }
        return e.hosts().size() > 1 ? best : null;
    }

    private static Map<String, String> hostsOther(NcclLogEvidence e) {
        String common = hostRoute(e);
        Map<String, String> other = new TreeMap<>();
        if (common == null) {
            return other;
        }
        for (HostFacts h : e.hostFacts()) {
            if (!h.host().isEmpty() && !h.networks().isEmpty() && !routeOf(h).equals(common)) {
                other.put(h.host(), routeOf(h));
            }
        }
        return other;
    }

    /**
     * The NICs listed by the networks whose routes carried bytes, or by every network when none did: every host's,
     * sorted (hosts list theirs in their own order).
     */
    private static List<String> nics(NcclLogEvidence e, Set<String> routes) {
        Set<String> byName = new java.util.TreeSet<>();
        for (NcclLogEvidence.NetDevice d : e.netDevices()) {
            boolean used = routes.isEmpty() || routes.stream().anyMatch(r -> r.startsWith("NET/" + d.network() + "/")
                    || r.equals("NET/" + d.network()));
            if (used) {
                byName.add(d.name() + ':' + d.port() + (d.linkLayer().isEmpty() ? "" : "/" + d.linkLayer()));
            }
        }
        return List.copyOf(byName);
    }

    private static Integer nicsUsed(List<Connection> connections) {
        Map<String, Set<Integer>> perHost = new HashMap<>();
        for (Connection c : connections) {
            if (c.transport() == Transport.NET && c.netDev() >= 0) {
                perHost.computeIfAbsent(c.host(), k -> new HashSet<>()).add(c.netDev());
            }
        }
        return perHost.isEmpty() ? null : perHost.values().stream().mapToInt(Set::size).max().orElse(0);
    }

    /** "32 coll channels, 32 collnet channels, 16 nvls channels, ..." (2.18-2.29), "8 coll channels, ..." (2.8-2.17). */
    private static Integer channels(NcclLogEvidence e) {
        int n = -1;
        for (Mention m : e.nvls()) {
            n = Math.max(n, countBefore(m.value(), " coll channels"));
        }
        return n < 0 ? null : n;
    }

    /** The number just before {@code what} in text, or -1. */
    static int countBefore(String text, String what) {
        int at = text.indexOf(what);
        if (at <= 0) {
            return -1;
        }
        int b = at;
        while (b > 0 && Character.isDigit(text.charAt(b - 1))) {
            b--;
        }
        return b == at || at - b > 6 ? -1 : Integer.parseInt(text.substring(b, at));
    }

    private static Boolean pxn(NcclLogEvidence e) {
        Boolean pxn = null;
        for (Connection c : e.connections()) {
            if (c.transport() == Transport.NET) {
                if (c.proxyRank() >= 0) {
                    return true;
                }
                pxn = false; // NET lines without a proxy: PXN did not route them
            }
        }
        for (Mention m : e.rings()) {
            if (m.value().contains("PXN 1")) {
                return true;
            }
            if (m.value().contains("PXN 0")) {
                pxn = false;
            }
        }
        return pxn;
    }

    /** Set up ("Connected NVLS", "NVLS comm", "N nvls channels" with N > 0), said off ("0 nvls channels"), or null. */
    private static Boolean nvls(NcclLogEvidence e) {
        Boolean on = null;
        for (Mention m : e.nvls()) {
            String v = m.value();
            int n = countBefore(v, " nvls channels");
            if (v.startsWith("Connected NVLS") || v.contains("NVLS comm") || n > 0) {
                return true;
            }
            if (n == 0) {
                on = false;
            }
        }
        return on;
    }

    /** CollNet connections or "Connected CollNet"; "Cannot initialize CollNet" says off. */
    private static Boolean collnet(NcclLogEvidence e) {
        Boolean on = null;
        for (Mention m : e.collnet()) {
            String v = m.value();
            if (v.contains("Cannot initialize CollNet") || v.contains("CollNet is not supported")) {
                on = false;
            } else if (v.contains(" via COLLNET") || v.contains("Connected CollNet") || v.contains("Connected Collnet")) {
                return true;
            }
        }
        if (e.connections().stream().anyMatch(c -> c.transport() == Transport.COLLNET)) {
            return true;
        }
        // transport.cc's WARN when NCCL_COLLNET_ENABLE asked for it and it could not start
        if (e.warnings().stream().anyMatch(w -> w.message().contains("Cannot initialize CollNet"))) {
            return false;
        }
        return on;
    }

    private static Map<String, Map<Long, String>> tuning(NcclLogEvidence e) {
        Map<String, Map<Long, String>> t = new TreeMap<>();
        for (Mention m : e.tuning()) {
            int sp = m.value().indexOf(' ');
            long size = Long.parseLong(m.value().substring(0, sp));
            String collective = m.kind().isEmpty() ? "any collective" : m.kind();
            // a size NCCL ran two ways (a retuned second call) keeps both, joined
            t.computeIfAbsent(collective, k -> new TreeMap<>()).merge(size, m.value().substring(sp + 1),
                    (a, b) -> {
                        Set<String> both = new java.util.TreeSet<>(List.of(a.split(" \\| ")));
                        both.add(b);
                        return String.join(" | ", both);
                    });
        }
        return t;
    }

    private static Map<String, String> env(NcclLogEvidence e) {
        Map<String, String> env = new TreeMap<>();
        for (NcclLogEvidence.EnvSetting s : e.env()) {
            if (s.fromNccl()) {
                env.putIfAbsent(s.name(), Redactor.value(s.name(), s.value()));
            }
        }
        return env;
    }
}
