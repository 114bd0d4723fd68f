package dev.ncclbench.choices;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every node's NCCL choices as one, for a multi-node run whose nodes kept their logs on their own disks: rank 0 reads
 * its node's, each other node's first process sends what its node's logs say ({@link ChoicesReader#ofNode}). A NET pair
 * between two nodes is counted from each side that logged it, so pair counts are per node side; the route most hosts
 * took and the hosts that took another are decided over every host.
 */
public final class ChoicesMerge {
    private ChoicesMerge() {
    }

    /** The nodes' choices as one; null for none. */
    public static NcclChoices of(List<NcclChoices> nodes) {
        List<NcclChoices> ns = nodes.stream().filter(Objects::nonNull).toList();
        if (ns.isEmpty()) {
            return null;
        }
        Set<String> versions = new TreeSet<>();
        Set<String> networks = new TreeSet<>();
        Set<String> nics = new TreeSet<>();
        Map<String, Integer> routes = new TreeMap<>();
        Map<String, String> examples = new TreeMap<>();
        Map<String, String> hostRoutes = new TreeMap<>();
        Map<String, Integer> intra = new TreeMap<>();
        Map<String, String> env = new TreeMap<>();
        Map<String, Map<Long, String>> tuning = new TreeMap<>();
        Integer nodeCount = null;
        Integer ranks = null;
        Integer nicsUsed = null;
        Integer channels = null;
        List<Boolean> pxn = new ArrayList<>();
        List<Boolean> nvls = new ArrayList<>();
        List<Boolean> collnet = new ArrayList<>();
        int logFiles = 0;
        for (NcclChoices c : ns) {
            if (c.ncclVersion() != null) {
                versions.addAll(List.of(c.ncclVersion().split(", ")));
            }
            networks.addAll(c.networks());
            nics.addAll(c.nics());
            c.netRoutes().forEach((k, v) -> routes.merge(k, v, Integer::sum));
            c.netExamples().forEach(examples::putIfAbsent);
            c.hostsOther().forEach(hostRoutes::putIfAbsent);
            c.intra().forEach((k, v) -> intra.merge(k, v, Integer::sum));
            c.env().forEach(env::putIfAbsent);
            c.tuning().forEach(tuning::putIfAbsent); // rank 0 logs NCCL's choices per call: the first node's
            nodeCount = max(nodeCount, c.nodes());
            ranks = max(ranks, c.ranks());
            nicsUsed = max(nicsUsed, c.nicsUsed());
            channels = max(channels, c.channels());
            pxn.add(c.pxn());
            nvls.add(c.nvls());
            collnet.add(c.collnet());
            logFiles += c.logFiles();
        }
        String common = majority(hostRoutes);
        Map<String, String> others = new TreeMap<>();
        hostRoutes.forEach((h, r) -> {
            if (!r.equals(common)) {
                others.put(h, r);
            }
        });
        int hosts = hostRoutes.size();
        return new NcclChoices(versions.isEmpty() ? null : String.join(", ", versions),
                max(nodeCount, hosts > 1 ? hosts : null), ranks, List.copyOf(networks), routes, examples,
                hosts > 1 ? common : null, hosts > 1 ? others : Map.of(), List.copyOf(nics), nicsUsed, channels, intra,
                any(pxn), any(nvls), any(collnet), tuning, env, logFiles);
    }

    /** The route most hosts took, a tie to the first by name. */
    private static String majority(Map<String, String> hostRoutes) {
        Map<String, Integer> votes = new TreeMap<>();
        hostRoutes.values().forEach(r -> votes.merge(r, 1, Integer::sum));
        String best = null;
        for (var v : votes.entrySet()) {
            if (best == null || v.getValue() > votes.get(best)) {
                best = v.getKey();
            }
        }
        return best;
    }

    private static Integer max(Integer a, Integer b) {
        return a == null ? b : b == null ? a : Integer.valueOf(Math.max(a, b));
    }

    /** True when any node said so, false when some said not and none said so, null when none said. */
    private static Boolean any(List<Boolean> said) {
        return said.contains(Boolean.TRUE) ? Boolean.TRUE : said.contains(Boolean.FALSE) ? Boolean.FALSE : null;
    }
}
