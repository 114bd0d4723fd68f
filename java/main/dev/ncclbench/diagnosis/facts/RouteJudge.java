package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;
import dev.ncclbench.nccllog.NcclLogEvidence.Interface;
import dev.ncclbench.nccllog.NcclLogEvidence.Mention;
import dev.ncclbench.nccllog.Networks;
import dev.ncclbench.nccllog.Transport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The path per pair of ranks and overall, from the connection lines (or NCCL's choice of network). */
final class RouteJudge {
    private RouteJudge() {
    }

    static List<PairVerdict> pairs(List<Connection> connections) {
        Map<Long, List<Connection>> byPair = new LinkedHashMap<>();
        for (Connection c : connections) {
            byPair.computeIfAbsent(((long) c.fromRank() << 32) | (c.toRank() & 0xffffffffL),
                    k -> new ArrayList<>()).add(c);
        }
        List<PairVerdict> out = new ArrayList<>(byPair.size());
        for (List<Connection> cs : byPair.values()) {
            out.add(pair(cs));
        }
        return List.copyOf(out);
    }

    private static PairVerdict pair(List<Connection> cs) {
        Connection first = cs.get(0);
        int channels = cs.stream().mapToInt(Connection::channels).max().orElse(0);
        List<String> ev = Lines.describe(cs, 4);
        List<Connection> nets = cs.stream().filter(c -> c.transport() == Transport.NET).toList();
        if (!nets.isEmpty()) {
            String name = nets.get(0).netName();
            if (nets.stream().anyMatch(c -> Networks.isSocket(c.netName()))) {
                return new PairVerdict(first.fromRank(), first.toRank(), RouteKind.SOCKET, "Socket", "NET/Socket",
                        channels, ev);
            }
            long gdr = nets.stream().filter(Connection::gdr).count();
            RouteKind k;
            if (!Networks.isIb(name)) {
                k = RouteKind.PLUGIN_NET;
            } else if (gdr == nets.size()) {
                k = RouteKind.RDMA_GDR;
            } else if (gdr == 0) {
                k = RouteKind.RDMA_HOST_STAGED;
            } else {
                k = RouteKind.RDMA_PARTIAL_GDR;
            }
            return new PairVerdict(first.fromRank(), first.toRank(), k, name, Lines.gdrSides(nets), channels, ev);
        }
        boolean anyShm = cs.stream().anyMatch(c -> c.transport() == Transport.SHM);
        boolean anyP2p = cs.stream().anyMatch(c -> c.transport() == Transport.P2P);
        RouteKind k = anyShm ? RouteKind.SHM : anyP2p ? RouteKind.P2P
                : first.transport() == Transport.NVLS ? RouteKind.NVLS
                : first.transport() == Transport.COLLNET ? RouteKind.COLLNET : RouteKind.UNKNOWN;
        String det = cs.stream().map(c -> c.transport() + (c.detail().isEmpty() ? "" : "/" + c.detail()))
                .distinct().reduce((a, b) -> a + ", " + b).orElse("");
        return new PairVerdict(first.fromRank(), first.toRank(), k, "", det, channels, ev);
    }

    /** Whether {@code c}'s own line shows {@code path}: for sockets, a NET/Socket line; any line for other paths. */
    private static boolean shows(Connection c, RouteKind path) {
        return path != RouteKind.SOCKET || Networks.isSocket(c.netName());
    }

    static Overall overall(Facts f) {
        NcclLogEvidence e = f.evidence();
        HostRoutes hosts = f.hostRoutes();
        if (!f.net().isEmpty() || hosts.lines() > 0) {
            PairVerdict worst = null;
            for (PairVerdict p : f.pairs()) {
                if (p.path().interNode() && (worst == null || p.path().worseThan(worst.path()))) {
                    worst = p;
                }
            }
            RouteKind path = oneSided(f, worst == null ? RouteKind.UNKNOWN : worst.path());
            String network = worst == null ? "" : worst.network();
            long listed = f.net().stream().mapToLong(Connection::lines).sum();
            if (listed < hosts.lines() && hosts.worst().worseThan(path)) {
                // the connection list was capped: every host's own NET lines decide, and the hosts are named
                path = oneSided(f, hosts.worst());
                String basis = "from " + hosts.lines() + " NET connection line(s) of " + hosts.byHost().size()
                        + " host(s) in NCCL's log";
                String doubt = Coverage.doubt(f);
                return new Overall(path, doubt.isEmpty() ? "certain" : "likely", doubt.isEmpty() ? basis
                        : basis + "; " + doubt, hosts.network(path, e), hosts.evidence(path, e, Lines.MAX_EVIDENCE));
            }
            List<String> ev;
            if (path == RouteKind.RDMA_PARTIAL_GDR || path == RouteKind.RDMA_GDR || path == RouteKind.RDMA_HOST_STAGED) {
                ev = Lines.describe(f.net(), Lines.MAX_EVIDENCE);
            } else {
                Map<Long, RouteKind> byPair = new HashMap<>();
                f.pairs().forEach(p -> byPair.put(pairKey(p.fromRank(), p.toRank()), p.path()));
                RouteKind k = path;
                List<Connection> ofPath = f.net().stream().filter(c -> byPair.get(pairKey(c.fromRank(), c.toRank())) == k)
                        .toList();
                // a pair's other side may print its own network (IB) for a link a socket host made: the lines that
                // show the path itself come first, so that "sockets" is shown by NET/Socket lines
                ev = java.util.stream.Stream.concat(ofPath.stream().filter(c -> shows(c, k)),
                                ofPath.stream().filter(c -> !shows(c, k)))
                        .limit(Lines.MAX_EVIDENCE).map(Lines::describe).toList();
            }
            String basis = "from " + f.net().size() + " NET connection line group(s) in NCCL's log";
            String doubt = Coverage.doubt(f);
            return new Overall(path, doubt.isEmpty() ? "certain" : "likely", doubt.isEmpty() ? basis
                    : basis + "; " + doubt, network, ev);
        }
        boolean multiNode = f.multiNode();
        if (f.nranks() == 1 && !multiNode) {
            // NCCL >= 2.28 brings its NET plugins up for every communicator, one rank included: no byte uses them
            return new Overall(RouteKind.LOOPBACK, "certain", "from NCCL's init lines (nranks 1); the network NCCL"
                    + " initialised carries nothing", "", List.of());
        }
        if (f.singleNode() || !multiNode && f.nvlsSetUp().isPresent()) {
            return intraNode(f); // "nNodes 1": the network NCCL chose carries nothing
        }
        if (multiNode && !f.p2p().isEmpty() && e.topology().stream().anyMatch(m -> m.kind().equals("mnnvl-on"))) {
            // MNNVL (GB200/GB300 NVL racks): NVLink joins the nodes, P2P carries the bytes between them, no NET line
            return new Overall(RouteKind.P2P, "likely", "from " + f.p2p().size() + " P2P connection line group(s) and"
                    + " NCCL's \"MNNVL 1\": NVLink reaches across the nodes; no NET connection line is in the log", "",
                    Lines.describe(f.p2p(), Lines.MAX_EVIDENCE));
        }
        Optional<Mention> coll = f.collnetUsed();
        if (multiNode && coll.isPresent()) {
            return new Overall(RouteKind.COLLNET, "likely", "from NCCL's CollNet lines; no NET connection line is in"
                    + " the log", "CollNet", List.of(coll.get().source() + ": " + coll.get().value()));
        }
        Optional<Mention> chosen = f.chosenNetwork();
        if (chosen.isEmpty() && (multiNode || e.connections().isEmpty())) {
            chosen = f.pluginNet(); // a network plugin's own lines name it; it exists to carry bytes between nodes
        }
        // IB and Socket come up on any host, one node included; a plugin (EFA, TCPX) exists to carry bytes between nodes
        boolean plugin = chosen.isPresent() && !Networks.isSocket(chosen.get().value())
                && !Networks.isIb(chosen.get().value());
        if (chosen.isPresent() && (multiNode || e.connections().isEmpty() && (!f.oneHost() || plugin))) {
            // no NET connection line: NCCL's choice of network is the best evidence left
            String name = chosen.get().value();
            RouteKind path = Networks.isSocket(name) ? RouteKind.SOCKET : Networks.isIb(name) ? RouteKind.RDMA
                    : RouteKind.PLUGIN_NET;
            boolean said = chosen.get().kind().equals("network");
            List<String> ev = new ArrayList<>(List.of(chosen.get().source() + ": " + (said ? "Using network " + name
                    : "NET plugin " + name + " initialised")));
            String basis = said ? "from NCCL's \"Using network " + name + "\" line; no connection line confirms it"
                    + " carried data" : "from the " + name + " plugin's init lines (no \"Using network\" line, no"
                    + " connection line)";
            if (!f.ranksElsewhere().isEmpty() && e.hosts().size() <= 1) {
                basis += "; " + f.ranksElsewhere() + " (the intra-node lines say nothing about the path between them)";
            }
            if (path == RouteKind.PLUGIN_NET && !f.provider().isEmpty()) {
                e.networks().stream().filter(m -> m.kind().equals("provider")).findFirst()
                        .ifPresent(m -> ev.add(m.source() + ": selected provider " + m.value()));
            }
            if (path == RouteKind.RDMA) {
                Gdr.Signal gdr = Gdr.signal(f);
                path = gdr.path(path);
                ev.addAll(gdr.evidence());
                basis += gdr.basis();
            }
            return new Overall(path, "likely", basis, name, ev);
        }
        if (multiNode) {
            List<NcclLogEvidence.NetDevice> rdma = e.netDevices().stream()
                    .filter(d -> !Networks.isSocket(d.network())).toList();
            if (!rdma.isEmpty()) {
                // NCCL takes the first network that initialises, IB before Socket: listed RDMA devices are its pick
                NcclLogEvidence.NetDevice d = rdma.get(0);
                Gdr.Signal gdr = Gdr.signal(f);
                List<String> ev = new ArrayList<>(List.of(d.source() + ": NET/" + d.network() + " : Using " + d.name()
                        + ":" + d.port() + (d.linkLayer().isEmpty() ? "" : "/" + d.linkLayer())));
                ev.addAll(gdr.evidence());
                return new Overall(gdr.path(RouteKind.RDMA), "likely", "from NET/" + d.network() + "'s device lines;"
                        + " no connection line confirms it carried data" + gdr.basis(), d.network(), ev);
            }
            if (!e.noNetDevice().isEmpty() && !e.socketIfaces().isEmpty()) {
                Mention m = e.noNetDevice().get(0);
                return new Overall(RouteKind.SOCKET, "likely", "from \"NET/" + m.value() + " : No device found\" and"
                        + " NET/Socket's interface lines; no connection line confirms it", "Socket",
                        List.of(m.source() + ": NET/" + m.value() + " : No device found"));
            }
            if (!e.socketIfaces().isEmpty() && e.networks().stream().noneMatch(m -> m.kind().equals("network"))) {
                // NCCL brings NET/Socket up only when no network before it (plugin, IB) initialised
                Interface i = e.socketIfaces().get(0);
                return new Overall(RouteKind.SOCKET, "likely", "from NET/Socket's interface lines (NCCL starts"
                        + " NET/Socket only when no plugin and no IB device came up); no connection line confirms"
                        + " it", "Socket", List.of(i.source() + ": NET/Socket : Using " + i.name() + ":"
                        + i.address()));
            }
            if (!f.initFailure()) {
                // several hosts, only intra-node lines: the inter-node path is what matters and is not in the log
                return new Overall(RouteKind.UNKNOWN, "unknown", "", "", List.of());
            }
        }
        return intraNode(f);
    }

    /**
     * A pair's verdict sees only its own lines: with /GDRDMA on the receive side and plain sends (or the reverse)
     * on other pairs, the job is partial GDR, never plain host-staged or full GDR.
     */
    private static RouteKind oneSided(Facts f, RouteKind path) {
        return f.gdrMixed() && (path == RouteKind.RDMA_HOST_STAGED || path == RouteKind.RDMA_GDR)
                ? RouteKind.RDMA_PARTIAL_GDR : path;
    }

    private static Overall intraNode(Facts f) {
        NcclLogEvidence e = f.evidence();
        if (f.initFailure() && !f.singleNode() && !e.connections().isEmpty()) {
            // init failed, and nothing shows one node: the intra-node lines it made before failing name no path
            return failedInit(f);
        }
        Optional<Mention> nvls = f.nvlsSetUp();
        RouteKind path;
        List<String> ev;
        Optional<Mention> carried = nvls.isPresent() ? Scope.nvlsCarried(e) : Optional.empty();
        if (!f.shm().isEmpty()) {
            path = RouteKind.SHM;
            ev = Lines.describe(f.shm(), Lines.MAX_EVIDENCE);
        } else if (carried.isPresent()) {
            // NCCL's own choice per call says NVLS carried the collective; its P2P lines are the other collectives'
            Mention c = carried.get();
            boolean symmetric = c.value().contains(" symmetric ");
            String line = (c.kind().isEmpty() ? "" : c.kind() + (symmetric ? " [Symmetric]" : "") + ": ")
                    + (symmetric ? c.value().replaceFirst(" symmetric ", " Bytes -> Kernel ")
                    : c.value().replaceFirst(" ", " Bytes -> Algo "));
            List<String> nvlsEv = new ArrayList<>(List.of(c.source() + ": " + line));
            nvlsEv.add(nvls.get().source() + ": " + nvls.get().value());
            String engines = Scope.engines(e);
            return new Overall(RouteKind.NVLS, "likely", "from NCCL's TUNING line that chose NVLS"
                    + (symmetric ? " multicast (a symmetric kernel)" : "") + " for the collective and its NVLS set-up"
                    + " lines" + (f.p2p().isEmpty() ? "" : "; the P2P lines carry the other collectives")
                    + (engines.isEmpty() ? "" : "; NCCL ran " + engines), "", nvlsEv);
        } else if (!f.p2p().isEmpty()) {
            path = RouteKind.P2P;
            ev = Lines.describe(f.p2p(), Lines.MAX_EVIDENCE);
        } else if (!e.connections().isEmpty()) {
            path = f.pairs().isEmpty() ? RouteKind.UNKNOWN : f.pairs().get(0).path();
            ev = Lines.describe(e.connections(), Lines.MAX_EVIDENCE);
        } else if (nvls.isPresent() && !Scope.tunedWithoutNvls(e)) {
            // no per-channel line: the NVLS set-up lines are all there is
            ev = e.nvls().stream().limit(Lines.MAX_EVIDENCE).map(m -> m.source() + ": " + m.value()).toList();
            return new Overall(RouteKind.NVLS, "likely", "from NCCL's NVLS lines; no connection line is in the"
                    + " log", "", ev);
        } else if (f.nranks() == 1) {
            return new Overall(RouteKind.LOOPBACK, "certain", "one rank", "", List.of());
        } else if (f.initFailure()) {
            return failedInit(f);
        } else {
            return Overall.unknown();
        }
        String engines = Scope.engines(e);
        String basis = "from " + e.connections().size() + " connection line group(s) in NCCL's log"
                + (engines.isEmpty() ? "" : "; NCCL ran " + engines);
        String doubt = Coverage.doubt(f);
        if (!f.singleNode()) {
            // intra-node lines prove the job's path only when the job is on one node
            doubt = (doubt.isEmpty() ? "" : doubt + "; ") + "nothing shows that the job ran on one node (no nNodes 1,"
                    + " and neither the P2P/SHM lines nor one host's init lines cover every rank)";
        }
        if (nvls.isPresent() && !Scope.tunedWithoutNvls(e)) {
            // NVLS set up next to these connections may carry the all-reduce; no line says which carried the bytes
            doubt = (doubt.isEmpty() ? "" : doubt + "; ") + "NVLS was set up too (" + nvls.get().value().strip()
                    + "), which NCCL may use for all-reduce: no line shows which carried the bytes";
        }
        return new Overall(path, doubt.isEmpty() ? "certain" : "likely", doubt.isEmpty() ? basis : basis + "; " + doubt,
                "", ev);
    }

    /**
     * No path: init failed. Certain only on NCCL's own word (a WARN from its source file) that the log then shows
     * travelling up (a later error return of its process, or the application's error line): NCCL goes on after many a
     * WARN (a device it cannot open, a plugin that fails), and an excerpt may end before it does. A plugin's or the
     * application's line about NCCL may be something NCCL went on after, as TCPX's progress warnings are.
     */
    private static Overall failedInit(Facts f) {
        var w = f.firstFailureWarning();
        boolean own = w != null && !w.ncclFile().isEmpty() && FailureKind.of(w) != FailureKind.PLUGIN;
        boolean propagated = own && f.failures().stream().anyMatch(x -> x != w && x.source() != null
                && w.source() != null && x.source().file().equals(w.source().file())
                && x.source().line() > w.source().line() && (x.pid() < 0 && x.ncclFile().isEmpty()
                || x.pid() == w.pid() && x.host().equals(w.host())));
        return new Overall(RouteKind.FAILED, propagated ? "certain" : "likely", propagated ? "from NCCL's WARN lines"
                + " and the error they raised" : own ? "from NCCL's WARN line; no later line shows it ended the init"
                : "from a WARN or error line about NCCL that is not NCCL's own", "", List.of());
    }

    private static long pairKey(int from, int to) {
        return ((long) from << 32) | (to & 0xffffffffL);
    }
}
