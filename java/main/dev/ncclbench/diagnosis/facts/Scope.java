package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;
import dev.ncclbench.nccllog.NcclLogEvidence.Mention;
import dev.ncclbench.nccllog.Networks;
import dev.ncclbench.nccllog.Transport;

import java.util.Locale;
import java.util.Optional;

/**
 * What a log says about the reach of a job and the transports it set up without per-channel lines: one node or
 * several, NVLS and CollNet in use, the NET plugin that carries the traffic and its provider, and NET/Socket as the
 * only network NCCL brought up. Every answer comes from NCCL's (or the plugin's) own INFO lines.
 */
final class Scope {
    private Scope() {
    }

    /**
     * One node for certain: NCCL said so ("nRanks 8 nNodes 1", 2.20+, and no line of the log says more nodes; hosts
     * of other names are containers of that node), or, without that line, the P2P/SHM connection lines join every
     * rank of the job into one group (P2P and SHM only ever link ranks of one node), or one host printed the init line
     * of every rank; and no NET line is in the log.
     * "Using network X" is printed on one node too, so it says nothing.
     */
    static boolean singleNode(NcclLogEvidence e, int nranks) {
        boolean one = false;
        for (Mention m : e.topology()) {
            if (m.kind().equals("nodes")) {
                if (!m.value().equals("1")) {
                    return false;
                }
                one = true;
            }
        }
        return one || nranks > 1 && (intraGroupCoversJob(e, nranks) || allRanksOnOneHost(e, nranks)
                || testsHosts(e).size() == 1 && testsRanks(e) >= nranks && testsRankRows(e) >= nranks);
    }

    /** The hosts nccl-tests' device rows name ("#  Rank  0 Group  0 Pid 12 on node-a device  0 ..."). */
    static java.util.Set<String> testsHosts(NcclLogEvidence e) {
        java.util.Set<String> hosts = new java.util.TreeSet<>();
        for (Mention m : e.topology()) {
            if (m.kind().equals("tests-rank")) {
                hosts.add(m.value().substring(m.value().indexOf(' ') + 1));
            }
        }
        return hosts;
    }

    /** The job size nccl-tests' device rows show: the highest rank + 1, or 0. */
    static int testsRanks(NcclLogEvidence e) {
        int n = 0;
        for (Mention m : e.topology()) {
            if (m.kind().equals("tests-rank")) {
                n = Math.max(n, Integer.parseInt(m.value().substring(0, m.value().indexOf(' '))) + 1);
            }
        }
        return n;
    }

    /** How many distinct ranks nccl-tests' device rows list. */
    static long testsRankRows(NcclLogEvidence e) {
        return e.topology().stream().filter(m -> m.kind().equals("tests-rank"))
                .map(m -> m.value().substring(0, m.value().indexOf(' '))).distinct().count();
    }

    /** One named host printed the init line of every rank of the job: the whole job ran there. */
    private static boolean allRanksOnOneHost(NcclLogEvidence e, int nranks) {
        if (e.hosts().size() != 1 || e.hosts().get(0).isEmpty()) {
            return false;
        }
        java.util.Set<Integer> ranks = new java.util.HashSet<>();
        e.ranks().forEach(r -> ranks.add(r.rank()));
        return ranks.size() >= nranks;
    }

    /** Whether the P2P/SHM lines link ranks 0..nranks-1 into one group, with no NET line anywhere. */
    private static boolean intraGroupCoversJob(NcclLogEvidence e, int nranks) {
        if (nranks > e.connections().size() + 1) {
            return false; // n ranks need n-1 links at least; also bounds the array when a line names a huge nranks
        }
        int[] parent = new int[nranks];
        for (int i = 0; i < nranks; i++) {
            parent[i] = i;
        }
        for (Connection c : e.connections()) {
            if (c.transport() == Transport.NET || c.transport() == Transport.COLLNET) {
                return false;
            }
            if ((c.transport() == Transport.P2P || c.transport() == Transport.SHM) && c.fromRank() >= 0
                    && c.toRank() >= 0 && c.fromRank() < nranks && c.toRank() < nranks) {
                parent[root(parent, c.fromRank())] = root(parent, c.toRank());
            }
        }
        int r = root(parent, 0);
        for (int i = 1; i < nranks; i++) {
            if (root(parent, i) != r) {
                return false;
            }
        }
        return true;
    }

    private static int root(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    /**
     * The job has ranks this log never shows while NCCL chose (or brought up) a network other than sockets: one
     * host's file of a bigger job whose excerpt has only intra-node lines (2.19 and older print no nNodes). The
     * ranks it does show are those of its init lines and connection lines. Sockets count only in a failed job (a
     * plugin failed, NCCL fell back to sockets, the other node's connect failed): NCCL falls back to them on every
     * host without an HCA, one node included, so in a healthy job they say nothing about other nodes.
     */
    static boolean ranksElsewhere(NcclLogEvidence e, int nranks, Optional<Mention> chosen, boolean failed) {
        if (chosen.isEmpty() || Networks.isSocket(chosen.get().value()) && !failed || nranks <= 1) {
            return false;
        }
        int seen = ranksShown(e);
        return seen > 0 && seen < nranks;
    }

    /** How many ranks have an init line or a connection line in the log. */
    static int ranksShown(NcclLogEvidence e) {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        e.ranks().forEach(r -> seen.add(r.rank()));
        for (Connection c : e.connections()) {
            seen.add(c.fromRank());
            seen.add(c.toRank());
        }
        return seen.size();
    }

    /**
     * NVLS set up: "NVLS comm 0x.. headRank", "Connected NVLS", or "N nvls channels" with N > 0. That is what NCCL
     * can do, not what it did: NVLS prints no per-channel connection line, so no line proves bytes went over it.
     */
    static Optional<Mention> nvlsSetUp(NcclLogEvidence e) {
        for (Mention m : e.nvls()) {
            String v = m.value();
            if (v.startsWith("Connected NVLS") || v.contains("NVLS comm") || v.contains("NVLS Head")) {
                return Optional.of(m);
            }
            int at = v.indexOf(" nvls channels");
            if (at > 0) {
                int b = v.lastIndexOf(' ', at - 1);
                String n = v.substring(b + 1, at);
                if (!n.isEmpty() && n.length() < 9 && n.chars().allMatch(Character::isDigit) && Integer.parseInt(n) > 0) {
                    return Optional.of(m);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * NVLS carrying the collective, not only set up: NCCL's TUNING line chose NVLS or NVLS_TREE for a collective
     * ("AllReduce: 268435456 Bytes -> Algo NVLS proto SIMPLE", 2.24+; "Algo 4"/"Algo 5" in 2.19-2.23). The line of the
     * largest size that chose it.
     */
    static Optional<Mention> nvlsCarried(NcclLogEvidence e) {
        Mention best = null;
        long bestSize = -1;
        for (Mention m : e.tuning()) {
            String[] v = m.value().split(" ");
            // symmetric kernels with MC in their name (AGxLLMC_R, RSxLDMC_AGxSTMC, LDMC, STMC) use NVLS multicast
            boolean multicast = v.length >= 3 && v[1].equals("symmetric") && v[2].contains("MC");
            if (v.length >= 2 && (v[1].startsWith("NVLS") || multicast) && Long.parseLong(v[0]) > bestSize) {
                best = m;
                bestSize = Long.parseLong(v[0]);
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * How NCCL ran collectives besides its SM kernels (TUNING lines, 2.27+): "AllGather on the copy engines", "AllReduce
     * in symmetric kernels"; "" when no line says.
     */
    static String engines(NcclLogEvidence e) {
        java.util.Set<String> ce = new java.util.TreeSet<>();
        java.util.Set<String> sym = new java.util.TreeSet<>();
        for (Mention m : e.tuning()) {
            String name = m.kind().isEmpty() ? "a collective" : m.kind();
            if (m.value().contains(" copy-engine ")) {
                ce.add(name);
            } else if (m.value().contains(" symmetric ")) {
                sym.add(name);
            }
        }
        java.util.List<String> parts = new java.util.ArrayList<>();
        if (!ce.isEmpty()) {
            parts.add(String.join(", ", ce) + " on the copy engines (cudaMemcpy over NVLink, no SM kernel)");
        }
        if (!sym.isEmpty()) {
            parts.add(String.join(", ", sym) + " in symmetric kernels on registered windows");
        }
        return String.join("; ", parts);
    }

    /** NCCL's TUNING lines chose an algorithm for some collective and never NVLS: NVLS set up carried none of them. */
    static boolean tunedWithoutNvls(NcclLogEvidence e) {
        return !e.tuning().isEmpty() && nvlsCarried(e).isEmpty()
                && e.tuning().stream().anyMatch(m -> !m.value().contains(" symmetric "));
    }

    /** CollNet connected: "CollNet 00/0 : 0 [send] via COLLNET/...", "rank 0 Connected CollNet", "Connected collnet". */
    static Optional<Mention> collnetUsed(NcclLogEvidence e) {
        return e.collnet().stream().filter(m -> m.value().contains("via COLLNET")
                || m.value().toLowerCase(Locale.ROOT).contains("connected collnet")).findFirst();
    }

    /**
     * The NET plugin that carries the traffic when no connection line names it: NCCL's choice ("Using network AWS
     * Libfabric", "Assigned NET plugin Libfabric to comm"), else a plugin that initialised ("Initialized NET plugin
     * GPUDirectTCPX_v7", aws-ofi-nccl's "Selected Provider is efa", "NET/GPUDirectTCPX plugin initialized").
     */
    static Optional<Mention> plugin(NcclLogEvidence e) {
        Optional<Mention> chosen = e.networks().stream().filter(m -> m.kind().equals("network")).findFirst();
        if (chosen.isPresent()) {
            String n = chosen.get().value();
            return Networks.isSocket(n) || Networks.isIb(n) ? Optional.empty() : chosen;
        }
        Optional<Mention> provider = e.networks().stream().filter(m -> m.kind().equals("provider")).findFirst()
                .map(m -> new Mention(m.host(), "plugin", "AWS Libfabric", m.source()));
        Mention named = null;
        for (Mention m : e.networks()) {
            // "NET/GPUDirectTCPX : Using [0]eth1:10.0.1.2<0>": the plugin named by its own interface line
            String name = m.kind().equals("plugin-interface") ? m.value().split(" ")[0] : m.value();
            if ((m.kind().equals("plugin") || m.kind().equals("plugin-interface")) && !Networks.isSocket(name)
                    && !Networks.isIb(name) && !name.startsWith("NET/Plugin") && !name.startsWith("Plugin Path")
                    && !name.startsWith("P2P plugin") && !failed(e, name)) {
                named = new Mention(m.host(), "plugin", name, m.source());
                break;
            }
        }
        if (named != null && named.value().equals("OFI")) {
            // aws-ofi-nccl's "NET/OFI ..." lines: the provider line says more ("AWS Libfabric", provider efa)
            return Optional.of(provider.orElse(new Mention(named.host(), "plugin", "AWS Libfabric", named.source())));
        }
        return named != null ? Optional.of(named) : provider.filter(m -> !failed(e, "OFI"));
    }

    /** The plugin failed to initialise: NCCL's "Failed to initialize NET plugin X", or the plugin's own WARN saying so. */
    private static boolean failed(NcclLogEvidence e, String name) {
        if (e.networks().stream().anyMatch(m -> m.kind().equals("plugin-failed") && m.value().equals(name))) {
            return true;
        }
        String tag = ("NET/" + name).toLowerCase(Locale.ROOT);
        return e.warnings().stream().map(w -> w.message().toLowerCase(Locale.ROOT)).anyMatch(m -> m.contains(tag)
                && (m.contains("initializ") && m.contains("fail") || m.contains("find any optimal provider")));
    }

    /** The provider the plugin selected ("efa"), or "". */
    static String provider(NcclLogEvidence e) {
        return e.networks().stream().filter(m -> m.kind().equals("provider")).map(Mention::value).findFirst()
                .orElse("");
    }

    /** What fabric a plugin serves, in words, from its name and provider. */
    static String fabricOf(String plugin, String provider) {
        String p = plugin.toLowerCase(Locale.ROOT);
        if (!provider.isEmpty()) {
            return "provider " + provider + (provider.equalsIgnoreCase("efa") ? " (AWS EFA)" : "");
        }
        if (p.contains("libfabric") || p.contains("ofi")) {
            return "libfabric (AWS EFA when the provider is efa)";
        }
        if (p.contains("tcpx")) {
            return "GPUDirect-TCPX over the VM's TCP NICs (GCP A3)";
        }
        if (p.contains("fastrak")) {
            return "GPUDirect-TCPXO (FasTrak, GCP A3 Mega)";
        }
        return "";
    }
}
