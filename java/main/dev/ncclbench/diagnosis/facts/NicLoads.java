package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.Direction;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;
import dev.ncclbench.nccllog.NcclLogEvidence.Interface;
import dev.ncclbench.nccllog.NcclLogEvidence.Mention;
import dev.ncclbench.nccllog.NcclLogEvidence.NetDevice;
import dev.ncclbench.nccllog.Transport;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Per host, what each NIC NCCL listed carried (channels and peers, from the NET channel lines), and which NIC carried
 * nothing or about twice its share while its siblings (the host's other listed ports of the same network and link
 * layer) carried. Judged only where the log can show it: every connection line was kept (none dropped by the
 * reader's caps), every rank of the host that logged completed its init (its ring and tree connections are all made
 * by then) and all belong to one communicator, the host listed its NICs, as many ranks as ports logged on it (a GPU per
 * port; a 4-GPU job leaves 4 of 8 NICs idle on purpose; beyond that, only more idle ports than the ranks leave idle
 * are named), enough channels for every port to get some, and NCCL_NETDEVS_POLICY not spreading send/recv on purpose. A merged port (NCCL_IB_MERGE_NICS: "mlx5_0+mlx5_1") is one
 * NIC of two ports; two GPUs sharing one NIC give that NIC twice a GPU's channels but the same share per port as its
 * siblings, so neither is accused.
 */
public final class NicLoads {
    /** At least this many times its share, and two channels more, is "about twice its share". */
    static final double OVER = 1.75;

    private NicLoads() {
    }

    public static List<NicLoad> of(NcclLogEvidence e) {
        Map<String, Map<String, List<Listed>>> lists = lists(e);
        Map<String, Map<String, Map<Integer, Count>>> counts = new LinkedHashMap<>();
        Map<String, Set<Integer>> localRanks = new LinkedHashMap<>();
        for (Connection c : e.connections()) {
            if (c.transport() != Transport.NET || c.netDev() < 0) {
                continue;
            }
            Map<String, List<Listed>> hostLists = lists.getOrDefault(c.host(), Map.of());
            String family = family(c.netName(), hostLists.keySet());
            Count n = counts.computeIfAbsent(c.host(), h -> new LinkedHashMap<>())
                    .computeIfAbsent(family, f -> new TreeMap<>()).computeIfAbsent(c.netDev(), d -> new Count());
            boolean send = c.direction() == Direction.SEND;
            int local = send ? c.fromRank() : c.toRank();
            n.peers.add(send ? c.toRank() : c.fromRank());
            localRanks.computeIfAbsent(c.host(), h -> new HashSet<>()).add(local);
            if (c.connIndex() == 1) {
                n.p2p += c.channels();
            } else {
                n.coll += c.channels();
            }
        }
        Policy policy = Policy.of(e);
        List<NicLoad> out = new ArrayList<>();
        counts.forEach((host, byFamily) -> byFamily.forEach((family, byDev) -> {
            List<NicLoad> rows = rows(host, family, lists.getOrDefault(host, Map.of()).getOrDefault(family,
                    List.of()), byDev);
            Set<Integer> ranks = new HashSet<>(localRanks.getOrDefault(host, Set.of()));
            e.ranks().stream().filter(r -> r.host().equals(host)).forEach(r -> ranks.add(r.rank()));
            out.addAll(NicJudge.judge(rows, ranks.size(), unjudged(e, host), policy));
        }));
        return List.copyOf(out);
    }

    /**
     * Why the host's channel lines cannot show what each NIC carried, or "": items dropped by the reader's caps (a
     * 1024-node job's connection lines past 65536), a rank of it that never printed Init
     * COMPLETE (its lines may be cut short), or ranks of several communicators (a channel line names no communicator,
     * so a sub-communicator's channels would add to the job's on a few NICs).
     */
    private static String unjudged(NcclLogEvidence e, String host) {
        if (e.counts().dropped() > 0) {
            return "the log holds more items than explain keeps (" + e.counts().dropped() + " dropped): this host's"
                    + " channel counts may be partial";
        }
        List<NcclLogEvidence.RankInfo> rs = e.ranks().stream().filter(r -> r.host().equals(host)).toList();
        if (rs.isEmpty() || !rs.stream().allMatch(NcclLogEvidence.RankInfo::initComplete)) {
            return "this host's ranks did not all log a completed init: its channel lines may be cut short";
        }
        Set<String> comms = new TreeSet<>();
        rs.stream().map(NcclLogEvidence.RankInfo::commId).filter(c -> !c.isEmpty()).forEach(comms::add);
        return comms.size() > 1 ? "this host's ranks belong to " + comms.size() + " communicators (commId "
                + String.join(", ", comms) + "), whose channel lines cannot be told apart" : "";
    }

    /** The list a channel line's network belongs to: IBext_v8 (the SHARP plugin) prints NET/IB's list. */
    static String family(String netName, Set<String> listed) {
        if (listed.contains(netName)) {
            return netName;
        }
        for (String l : listed) {
            if (netName.startsWith(l)) {
                return l; // GPUDirectTCPX_v7's lines, GPUDirectTCPX's list
            }
        }
        return netName.startsWith("IB") && listed.contains("IB") ? "IB" : netName;
    }

    private static List<NicLoad> rows(String host, String family, List<Listed> listed, Map<Integer, Count> byDev) {
        Set<String> members = new HashSet<>();
        listed.stream().filter(l -> l.members.size() > 1).forEach(l -> members.addAll(l.members));
        Map<String, Integer> byName = new LinkedHashMap<>();
        listed.forEach(l -> byName.merge(l.device, 1, Integer::sum));
        Map<Integer, NicLoad> rows = new TreeMap<>();
        for (Listed l : listed) {
            if (l.members.size() == 1 && members.contains(l.device)) {
                continue; // a port of a merged NIC: its channels show on the merged one
            }
            Count n = byDev.getOrDefault(l.index, new Count());
            String name = byName.get(l.device) > 1 ? l.device + ":" + l.port : l.name;
            rows.put(l.index, new NicLoad(host, family, name, l.index, l.link, true, n.coll, n.p2p, n.peers.size(),
                    NicLoad.UNJUDGED, ""));
        }
        byDev.forEach((dev, n) -> rows.putIfAbsent(dev, new NicLoad(host, family, family + "/" + dev, dev, "", false,
                n.coll, n.p2p, n.peers.size(), NicLoad.UNJUDGED, "")));
        return new ArrayList<>(rows.values());
    }

    /** The NICs each host listed, per network: NET/IB's devices, merged ports, NET/Socket's and plugins' interfaces. */
    private static Map<String, Map<String, List<Listed>>> lists(NcclLogEvidence e) {
        Map<String, Map<String, List<Listed>>> out = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        for (NetDevice d : e.netDevices()) {
            if (d.index() >= 0 && seen.add(d.host() + '|' + d.network() + '|' + d.index())) {
                list(out, d.host(), d.network()).add(new Listed(d.index(), d.name(), d.name(), d.port(),
                        d.linkLayer(), List.of(d.name())));
            }
        }
        for (Mention m : e.networks()) {
            String[] v = m.value().split(" ");
            if (m.kind().equals("vnic") && v.length == 3 && seen.add(m.host() + '|' + v[0] + '|' + v[1])) {
                // "NET/IB : Made virtual device [8] name=mlx5_0+mlx5_1 ...": a NIC of several ports
                List<Listed> l = list(out, m.host(), v[0]);
                String link = l.stream().filter(x -> v[2].startsWith(x.device + "+") || v[2].endsWith("+" + x.device))
                        .map(x -> x.link).findFirst().orElse("");
                l.add(new Listed(Integer.parseInt(v[1]), v[2], v[2], 0, link, List.of(v[2].split("\\+"))));
            } else if (m.kind().equals("plugin-interface") && v.length == 2) {
                // "NET/GPUDirectTCPX : Using [0]eth1:..." lists interfaces in device order
                List<Listed> l = list(out, m.host(), v[0]);
                l.add(new Listed(l.size(), v[1], v[1], 0, "", List.of(v[1])));
            }
        }
        Map<String, Set<String>> names = new LinkedHashMap<>();
        for (Interface i : e.socketIfaces()) {
            // "NET/Socket : Using [0]eth0:... [1]eth1:...": every process of a host prints the same list in order
            if (names.computeIfAbsent(i.host(), h -> new HashSet<>()).add(i.name())) {
                List<Listed> l = list(out, i.host(), "Socket");
                l.add(new Listed(l.size(), i.name(), i.name(), 0, "", List.of(i.name())));
            }
        }
        return out;
    }

    private static List<Listed> list(Map<String, Map<String, List<Listed>>> out, String host, String network) {
        return out.computeIfAbsent(host, h -> new LinkedHashMap<>()).computeIfAbsent(network, n -> new ArrayList<>());
    }

    /** One NIC a host listed: device (mlx5_0), port, link layer; members are the ports of a merged NIC. */
    private record Listed(int index, String name, String device, int port, String link, List<String> members) {
    }

    private static final class Count {
        int coll;
        int p2p;
        final Set<Integer> peers = new HashSet<>();
    }

    /**
     * NCCL_NETDEVS_POLICY as NCCL 2.28+ reads it (graph/topo.cc): AUTO (the default, and what an unknown value
     * becomes), ALL, MAX:n with n > 0. Send/recv and alltoall channels of a GPU go to ncclTopoGetLocalNet's NICs:
     * AUTO gives each GPU its share of its nearest NICs (DIVUP(nets, gpus)), ALL every nearest NIC, MAX:n up to n,
     * each picked by channel number; ring and tree channels follow the topology search, which MAX:n limits to n NICs
     * a GPU.
     */
    record Policy(String value, int max, boolean all) {
        static Policy of(NcclLogEvidence e) {
            String v = e.envValue("NCCL_NETDEVS_POLICY").map(NcclLogEvidence.EnvSetting::value).orElse("").trim();
            if (v.equalsIgnoreCase("ALL")) {
                return new Policy(v, 0, true);
            }
            if (v.regionMatches(true, 0, "MAX:", 0, 4)) {
                String digits = v.substring(4).replaceFirst("^\\s*([0-9]{1,9}).*$", "$1");
                int n = digits.matches("[0-9]{1,9}") ? Integer.parseInt(digits) : 0; // NCCL's atoi
                if (n > 0) {
                    return new Policy(v, n, false);
                }
            }
            return new Policy(v, 0, false);
        }

        /** Whether a GPU may put its send/recv channels on more than one NIC, unevenly by channel number. */
        boolean spreads() {
            return all || max > 1;
        }
    }
}
