package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;
import dev.ncclbench.nccllog.NcclLogEvidence.Mention;
import dev.ncclbench.nccllog.Transport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The path per pair of ranks and overall, from the connection lines (or NCCL's choice of network). */
final class PathJudge {
    private PathJudge() {
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
                return new PairVerdict(first.fromRank(), first.toRank(), PathKind.SOCKET, "Socket", "NET/Socket",
                        channels, ev);
            }
            long gdr = nets.stream().filter(Connection::gdr).count();
            PathKind k;
            if (!Networks.isIb(name)) {
                k = PathKind.PLUGIN_NET;
            } else if (gdr == nets.size()) {
                k = PathKind.RDMA_GDR;
            } else if (gdr == 0) {
                k = PathKind.RDMA_HOST_STAGED;
            } else {
                k = PathKind.RDMA_PARTIAL_GDR;
            }
            return new PairVerdict(first.fromRank(), first.toRank(), k, name, Lines.gdrSides(nets), channels, ev);
        }
        boolean anyShm = cs.stream().anyMatch(c -> c.transport() == Transport.SHM);
        boolean anyP2p = cs.stream().anyMatch(c -> c.transport() == Transport.P2P);
        PathKind k = anyShm ? PathKind.SHM : anyP2p ? PathKind.P2P
                : first.transport() == Transport.NVLS ? PathKind.NVLS
                : first.transport() == Transport.COLLNET ? PathKind.COLLNET : PathKind.UNKNOWN;
        String det = cs.stream().map(c -> c.transport() + (c.detail().isEmpty() ? "" : "/" + c.detail()))
                .distinct().reduce((a, b) -> a + ", " + b).orElse("");
        return new PairVerdict(first.fromRank(), first.toRank(), k, "", det, channels, ev);
    }

    static Overall overall(Facts f) {
        NcclLogEvidence e = f.evidence();
        if (!f.net().isEmpty()) {
            PairVerdict worst = null;
            for (PairVerdict p : f.pairs()) {
                if (p.path().interNode() && (worst == null || p.path().worseThan(worst.path()))) {
                    worst = p;
                }
            }
            PathKind path = worst == null ? PathKind.UNKNOWN : worst.path();
            List<String> ev;
            if (path == PathKind.RDMA_PARTIAL_GDR || path == PathKind.RDMA_GDR || path == PathKind.RDMA_HOST_STAGED) {
                ev = Lines.describe(f.net(), Lines.MAX_EVIDENCE);
            } else {
                ev = f.net().stream().filter(c -> kindOf(f.pairs(), c) == path).limit(Lines.MAX_EVIDENCE)
                        .map(Lines::describe).toList();
            }
            return new Overall(path, "certain", "from " + f.net().size() + " NET connection line group(s) in NCCL's"
                    + " log", worst == null ? "" : worst.network(), ev);
        }
        Optional<Mention> chosen = e.networks().stream().filter(m -> m.kind().equals("network")).findFirst();
        boolean multiNode = e.hosts().size() > 1;
        if (chosen.isPresent() && (multiNode || e.connections().isEmpty())) {
            // no NET connection line: NCCL's choice of network is the best evidence left
            String name = chosen.get().value();
            PathKind path = Networks.isSocket(name) ? PathKind.SOCKET : Networks.isIb(name) ? PathKind.RDMA
                    : PathKind.PLUGIN_NET;
            return new Overall(path, "likely", "from NCCL's \"Using network " + name + "\" line; no connection line"
                    + " confirms it carried data", name, List.of(chosen.get().source() + ": Using network " + name));
        }
        return intraNode(f);
    }

    private static Overall intraNode(Facts f) {
        NcclLogEvidence e = f.evidence();
        boolean nvlsUsed = e.nvls().stream().anyMatch(m -> m.kind().equals("nvls")
                && (m.value().startsWith("Connected NVLS") || m.value().contains("NVLS comm")));
        PathKind path;
        List<String> ev;
        if (!f.shm().isEmpty()) {
            path = PathKind.SHM;
            ev = Lines.describe(f.shm(), Lines.MAX_EVIDENCE);
        } else if (nvlsUsed) {
            path = PathKind.NVLS;
            ev = e.nvls().stream().limit(Lines.MAX_EVIDENCE).map(m -> m.source() + ": " + m.value()).toList();
        } else if (!f.p2p().isEmpty()) {
            path = PathKind.P2P;
            ev = Lines.describe(f.p2p(), Lines.MAX_EVIDENCE);
        } else if (!e.connections().isEmpty()) {
            path = f.pairs().isEmpty() ? PathKind.UNKNOWN : f.pairs().get(0).path();
            ev = Lines.describe(e.connections(), Lines.MAX_EVIDENCE);
        } else if (f.nranks() == 1) {
            return new Overall(PathKind.LOOPBACK, "certain", "one rank", "", List.of());
        } else if (f.initFailure()) {
            return new Overall(PathKind.FAILED, "certain", "from NCCL's WARN lines", "", List.of());
        } else {
            return Overall.unknown();
        }
        return new Overall(path, "certain", "from " + e.connections().size() + " connection line group(s) in"
                + " NCCL's log", "", ev);
    }

    private static PathKind kindOf(List<PairVerdict> pairs, Connection c) {
        for (PairVerdict p : pairs) {
            if (p.fromRank() == c.fromRank() && p.toRank() == c.toRank()) {
                return p.path();
            }
        }
        return PathKind.UNKNOWN;
    }
}
