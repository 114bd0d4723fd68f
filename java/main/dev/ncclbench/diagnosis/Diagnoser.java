package dev.ncclbench.diagnosis;

import dev.ncclbench.finding.Severity;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.nccllog.Direction;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;
import dev.ncclbench.nccllog.NcclLogEvidence.EnvSetting;
import dev.ncclbench.nccllog.NcclLogEvidence.Interface;
import dev.ncclbench.nccllog.NcclLogEvidence.Mention;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;
import dev.ncclbench.nccllog.Transport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Pure functions from {@link NcclLogEvidence} to a {@link Diagnosis}: the per-pair and overall path, and the
 * findings of every rule. A rule that throws becomes a RULE-CRASHED finding; missing evidence is a finding.
 */
public final class Diagnoser {
    static final String RUNBOOK = "NCCL socket fallback runbook (shared/seeds/runbook-socket-fallback.txt)";
    static final String ENV_DOC = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html";
    static final String NET_DOC =
            "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting/networking_troubleshooting.html";
    private static final int MAX_EVIDENCE = 8;

    /** One rule: evidence in, findings out. */
    @FunctionalInterface
    interface Rule extends Function<Facts, List<Finding>> {
    }

    private record NamedRule(String id, Rule rule) {
    }

    private static final List<NamedRule> RULES = List.of(
            new NamedRule("NO-NCCL-LINES", Diagnoser::noNcclLines),
            new NamedRule("BOOTSTRAP-NO-INTERFACE", Diagnoser::bootstrapNoInterface),
            new NamedRule("NET-CONNECTION-FAILURE", Diagnoser::connectionFailure),
            new NamedRule("IB-VERBS-ERROR", Diagnoser::verbsError),
            new NamedRule("NCCL-ERROR", Diagnoser::ncclError),
            new NamedRule("NET-SOCKET-FALLBACK", Diagnoser::socketFallback),
            new NamedRule("NET-SOCKET-NO-RDMA", Diagnoser::socketNoRdma),
            new NamedRule("SOCKET-STRAY-INTERFACE", Diagnoser::strayInterface),
            new NamedRule("NET-IB-NO-GDR", Diagnoser::ibNoGdr),
            new NamedRule("NET-GDR-ASYMMETRIC", Diagnoser::gdrAsymmetric),
            new NamedRule("NET-PLUGIN", Diagnoser::plugin),
            new NamedRule("NET-PXN", Diagnoser::pxn),
            new NamedRule("INTRA-SHM", Diagnoser::intraShm),
            new NamedRule("COLLNET-UNAVAILABLE", Diagnoser::collnet),
            new NamedRule("NCCL-WARN", Diagnoser::otherWarnings),
            new NamedRule("NCCL-VERSION-MIXED", Diagnoser::versionMixed),
            new NamedRule("NO-PATH-EVIDENCE", Diagnoser::noPathEvidence),
            new NamedRule("INIT-NOT-COMPLETE", Diagnoser::initNotComplete),
            new NamedRule("LOG-LINES-UNUSED", Diagnoser::unusedLines));

    private Diagnoser() {
    }

    /** The rule ids, for `--ignore` and documentation. */
    public static List<String> ruleIds() {
        List<String> ids = new ArrayList<>();
        RULES.forEach(r -> ids.add(r.id()));
        ids.add("RULE-CRASHED");
        return ids;
    }

    public static Diagnosis diagnose(NcclLogEvidence e) {
        return diagnose(e, RULES);
    }

    /** With one more rule: tests use it to prove a crashing rule becomes a finding. */
    static Diagnosis diagnoseWith(NcclLogEvidence e, String id, Rule extra) {
        List<NamedRule> rules = new ArrayList<>(RULES);
        rules.add(new NamedRule(id, extra));
        return diagnose(e, rules);
    }

    private static Diagnosis diagnose(NcclLogEvidence e, List<NamedRule> rules) {
        Facts f = new Facts(e);
        List<Finding> findings = new ArrayList<>();
        for (NamedRule r : rules) {
            try {
                findings.addAll(r.rule().apply(f));
            } catch (RuntimeException ex) {
                findings.add(new Finding("RULE-CRASHED", Severity.WARNING, "rule " + r.id() + " failed: " + ex,
                        "The other rules ran; this one could not judge the log, so its question stays open.",
                        List.of(), List.of("report it with the log attached"), "ncclbench"));
            }
        }
        findings.sort(Comparator.comparing(Finding::severity).reversed());
        Health health = health(f, findings);
        return new Diagnosis(f.overall, health, f.confidence, reason(f, health), f.e.hosts().size(), f.nranks,
                f.pairs, List.copyOf(findings), f.overallEvidence);
    }

    private static Health health(Facts f, List<Finding> findings) {
        if (f.initFailure) {
            return Health.INIT_FAILED;
        }
        if (f.runFailure) {
            return Health.RUN_FAILED;
        }
        if (f.overall == PathKind.UNKNOWN) {
            return Health.NO_EVIDENCE;
        }
        boolean degraded = findings.stream().anyMatch(x -> x.severity() == Severity.ERROR
                && (x.ruleId().equals("NET-SOCKET-FALLBACK") || x.ruleId().equals("NET-IB-NO-GDR")
                || x.ruleId().equals("NET-GDR-ASYMMETRIC")));
        return degraded ? Health.DEGRADED : Health.HEALTHY;
    }

    private static String reason(Facts f, Health h) {
        if (h == Health.INIT_FAILED) {
            return "NCCL failed before any collective ran: " + f.firstFailure + ".";
        }
        if (h == Health.RUN_FAILED) {
            return "NCCL initialised, then failed: " + f.firstFailure + ".";
        }
        if (f.overall == PathKind.UNKNOWN) {
            return f.e.counts().ncclLines() == 0 ? "The input holds no NCCL output."
                    : "The log names no connection; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET.";
        }
        String net = f.overall.interNode() && !f.networkName.isEmpty() ? " (" + f.networkName + ")" : "";
        return f.overall.description + net + ", " + f.basis + ".";
    }

    // ------------------------------------------------------------------ facts computed once, shared by rules

    /** What the rules ask about, computed once. */
    static final class Facts {
        final NcclLogEvidence e;
        final List<Connection> net = new ArrayList<>();
        final List<Connection> socket = new ArrayList<>();
        final List<Connection> ib = new ArrayList<>();
        final List<Connection> plugin = new ArrayList<>();
        final List<Connection> shm = new ArrayList<>();
        final List<Connection> p2p = new ArrayList<>();
        final List<String> rdmaEvidence = new ArrayList<>();
        final List<Warning> failures = new ArrayList<>();
        final List<PairVerdict> pairs;
        final int nranks;
        PathKind overall = PathKind.UNKNOWN;
        String confidence = "unknown";
        String basis = "";
        String networkName = "";
        List<String> overallEvidence = List.of();
        boolean initFailure;
        boolean runFailure;
        String firstFailure = "";

        Facts(NcclLogEvidence e) {
            this.e = e;
            for (Connection c : e.connections()) {
                switch (c.transport()) {
                    case NET -> {
                        net.add(c);
                        if (isSocket(c.netName())) {
                            socket.add(c);
                        } else if (isIb(c.netName())) {
                            ib.add(c);
                        } else {
                            plugin.add(c);
                        }
                    }
                    case SHM -> shm.add(c);
                    case P2P -> p2p.add(c);
                    default -> {
                    }
                }
            }
            nranks = e.ranks().stream().mapToInt(NcclLogEvidence.RankInfo::nranks).max().orElse(0);
            rdmaEvidence();
            failures();
            pairs = pairs();
            overall();
        }

        private void rdmaEvidence() {
            for (var d : e.netDevices()) {
                if (!isSocket(d.network())) {
                    rdmaEvidence.add(d.source() + ": NCCL sees " + d.network() + " device " + d.name() + ":"
                            + d.port() + (d.linkLayer().isEmpty() ? "" : "/" + d.linkLayer()));
                }
            }
            for (var g : e.gdr()) {
                rdmaEvidence.add(g.source() + ": " + g.text());
            }
            for (var m : e.hostRdma()) {
                rdmaEvidence.add(m.source() + ": " + m.kind() + " " + m.value());
            }
            for (var m : e.networks()) {
                if (m.kind().equals("plugin-failed") && isIb(m.value())) {
                    rdmaEvidence.add(m.source() + ": NET plugin " + m.value() + " failed to initialise");
                }
            }
            for (String v : List.of("NCCL_IB_HCA", "NCCL_IB_DISABLE", "NCCL_IB_GID_INDEX")) {
                e.envValue(v).ifPresent(s -> rdmaEvidence.add(s.source() + ": " + s.name() + "=" + s.value()
                        + " (" + s.origin() + ")"));
            }
            for (Interface i : concat(e.socketIfaces(), e.bootstrap())) {
                String n = i.name().startsWith("oob:") ? i.name().substring(4) : i.name();
                if (n.startsWith("ib") || n.startsWith("rdma")) {
                    rdmaEvidence.add(i.source() + ": interface " + n + " (IPoIB or RDMA netdev)");
                }
            }
        }

        private void failures() {
            boolean anyInit = e.ranks().stream().anyMatch(NcclLogEvidence.RankInfo::initComplete);
            for (Warning w : e.warnings()) {
                if (failureKind(w) == null) {
                    continue;
                }
                failures.add(w);
                boolean fatal = !anyInit || w.afterInit();
                if (!fatal) {
                    continue; // NCCL warned during init and carried on (e.g. fell back from DMA-BUF)
                }
                if (anyInit) {
                    runFailure = true;
                } else {
                    initFailure = true;
                }
                if (firstFailure.isEmpty()) {
                    firstFailure = w.message();
                }
            }
        }

        /** A failure WARN that NCCL survived: it warned before init and init still completed. */
        boolean survived(Warning w) {
            boolean anyInit = e.ranks().stream().anyMatch(NcclLogEvidence.RankInfo::initComplete);
            return anyInit && !w.afterInit();
        }

        private List<PairVerdict> pairs() {
            Map<Long, List<Connection>> byPair = new LinkedHashMap<>();
            for (Connection c : e.connections()) {
                byPair.computeIfAbsent(((long) c.fromRank() << 32) | (c.toRank() & 0xffffffffL),
                        k -> new ArrayList<>()).add(c);
            }
            List<PairVerdict> out = new ArrayList<>(byPair.size());
            for (List<Connection> cs : byPair.values()) {
                out.add(pairVerdict(cs));
            }
            return List.copyOf(out);
        }

        private static PairVerdict pairVerdict(List<Connection> cs) {
            Connection first = cs.get(0);
            int channels = cs.stream().mapToInt(Connection::channels).max().orElse(0);
            List<String> ev = cs.stream().limit(4).map(Diagnoser::describe).toList();
            List<Connection> nets = cs.stream().filter(c -> c.transport() == Transport.NET).toList();
            if (!nets.isEmpty()) {
                String name = nets.get(0).netName();
                if (nets.stream().anyMatch(c -> isSocket(c.netName()))) {
                    return new PairVerdict(first.fromRank(), first.toRank(), PathKind.SOCKET, "Socket",
                            "NET/Socket", channels, ev);
                }
                long gdr = nets.stream().filter(Connection::gdr).count();
                String sides = gdrSides(nets);
                PathKind k;
                if (!isIb(name)) {
                    k = PathKind.PLUGIN_NET;
                } else if (gdr == nets.size()) {
                    k = PathKind.RDMA_GDR;
                } else if (gdr == 0) {
                    k = PathKind.RDMA_HOST_STAGED;
                } else {
                    k = PathKind.RDMA_PARTIAL_GDR;
                }
                return new PairVerdict(first.fromRank(), first.toRank(), k, name, sides, channels, ev);
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

        private void overall() {
            if (!net.isEmpty()) {
                PathVerdictOrder worst = null;
                for (PairVerdict p : pairs) {
                    if (p.path().interNode() && (worst == null || p.path().ordinal() < worst.kind.ordinal())) {
                        worst = new PathVerdictOrder(p.path(), p);
                    }
                }
                overall = worst == null ? PathKind.UNKNOWN : worst.kind;
                networkName = worst == null ? "" : worst.pair.network();
                confidence = "certain";
                basis = "from " + net.size() + " NET connection line group(s) in NCCL's log";
                overallEvidence = net.stream().filter(c -> pairKindOf(c) == overall).limit(MAX_EVIDENCE)
                        .map(Diagnoser::describe).toList();
                if (overall == PathKind.RDMA_PARTIAL_GDR || overall == PathKind.RDMA_GDR
                        || overall == PathKind.RDMA_HOST_STAGED) {
                    overallEvidence = net.stream().limit(MAX_EVIDENCE).map(Diagnoser::describe).toList();
                }
                return;
            }
            Optional<Mention> chosen = e.networks().stream().filter(m -> m.kind().equals("network")).findFirst();
            boolean multiNode = e.hosts().size() > 1;
            if (chosen.isPresent() && (multiNode || e.connections().isEmpty())) {
                // no NET connection line: NCCL's choice of network is the best evidence left
                String name = chosen.get().value();
                networkName = name;
                overall = isSocket(name) ? PathKind.SOCKET : isIb(name) ? PathKind.RDMA : PathKind.PLUGIN_NET;
                confidence = "likely";
                basis = "from NCCL's \"Using network " + name + "\" line; no connection line confirms it carried data";
                overallEvidence = List.of(chosen.get().source() + ": Using network " + name);
                return;
            }
            intraOverall();
        }

        private void intraOverall() {
            boolean nvlsUsed = e.nvls().stream().anyMatch(m -> m.kind().equals("nvls")
                    && (m.value().startsWith("Connected NVLS") || m.value().contains("NVLS comm")));
            if (!shm.isEmpty()) {
                overall = PathKind.SHM;
                overallEvidence = shm.stream().limit(MAX_EVIDENCE).map(Diagnoser::describe).toList();
            } else if (nvlsUsed) {
                overall = PathKind.NVLS;
                overallEvidence = e.nvls().stream().limit(MAX_EVIDENCE)
                        .map(m -> m.source() + ": " + m.value()).toList();
            } else if (!p2p.isEmpty()) {
                overall = PathKind.P2P;
                overallEvidence = p2p.stream().limit(MAX_EVIDENCE).map(Diagnoser::describe).toList();
            } else if (!e.connections().isEmpty()) {
                overall = pairs.isEmpty() ? PathKind.UNKNOWN : pairs.get(0).path();
                overallEvidence = e.connections().stream().limit(MAX_EVIDENCE).map(Diagnoser::describe).toList();
            } else if (nranks == 1) {
                overall = PathKind.LOOPBACK;
                confidence = "certain";
                basis = "one rank";
                return;
            } else if (initFailure) {
                overall = PathKind.FAILED;
                confidence = "certain";
                basis = "from NCCL's WARN lines";
                return;
            } else {
                return;
            }
            confidence = "certain";
            basis = "from " + e.connections().size() + " connection line group(s) in NCCL's log";
        }

        private PathKind pairKindOf(Connection c) {
            for (PairVerdict p : pairs) {
                if (p.fromRank() == c.fromRank() && p.toRank() == c.toRank()) {
                    return p.path();
                }
            }
            return PathKind.UNKNOWN;
        }

        boolean rdmaPresent() {
            return !rdmaEvidence.isEmpty();
        }

        Optional<EnvSetting> env(String name) {
            return e.envValue(name);
        }
    }

    private record PathVerdictOrder(PathKind kind, PairVerdict pair) {
    }

    // ------------------------------------------------------------------ the rules

    private static List<Finding> noNcclLines(Facts f) {
        if (f.e.counts().ncclLines() > 0) {
            return List.of();
        }
        return List.of(new Finding("NO-NCCL-LINES", Severity.ERROR, "no NCCL output in the input",
                "None of the " + f.e.counts().total() + " lines is NCCL's: nothing can be judged. NCCL logs only"
                        + " with NCCL_DEBUG=INFO, and by default to stdout of each rank.",
                List.of(), List.of("export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,BOOTSTRAP,ENV,NET",
                "export NCCL_DEBUG_FILE=/tmp/nccl.%h.%p   # one file per process",
                "ncclbench explain /tmp/nccl.*"), ENV_DOC));
    }

    private static List<Finding> bootstrapNoInterface(Facts f) {
        List<Warning> ws = f.e.warnings().stream()
                .filter(w -> w.message().contains("no socket interface found")).toList();
        if (ws.isEmpty()) {
            return List.of();
        }
        List<String> ev = new ArrayList<>(warnEvidence(ws));
        List<String> remedy = new ArrayList<>();
        Optional<EnvSetting> ifname = f.env("NCCL_SOCKET_IFNAME");
        remedy.add("ip -br addr          # the interfaces this host (or container) really has");
        if (ifname.isPresent()) {
            ev.add(ifname.get().source() + ": NCCL_SOCKET_IFNAME=" + ifname.get().value() + " ("
                    + ifname.get().origin() + ")");
            String other = f.e.socketIfaces().stream().map(Interface::name).findFirst()
                    .or(() -> f.e.bootstrap().stream().map(Interface::name).filter(n -> !n.startsWith("oob:"))
                            .findFirst())
                    .orElse("<an interface from ip -br addr, e.g. eth0>");
            remedy.add("export NCCL_SOCKET_IFNAME=" + other + "   # was '" + ifname.get().value()
                    + "', which matches no interface; or unset it and let NCCL choose");
            remedy.add("in a container, the host's interface names may not exist: use the name inside it");
        } else {
            remedy.add("no interface NCCL accepts is up: check that one is UP with an IPv4/IPv6 address"
                    + " (NCCL skips lo unless nothing else exists)");
        }
        remedy.add("mind the syntax: prefixes, comma-separated; ^ excludes; = exact (^=docker0); one character is"
                + " ignored");
        return List.of(new Finding("BOOTSTRAP-NO-INTERFACE", Severity.ERROR,
                "bootstrap found no socket interface: the job dies before any collective",
                "NCCL's bootstrap opens a TCP socket on an interface chosen by NCCL_SOCKET_IFNAME (or its default"
                        + " order). When the setting matches nothing NCCL does not fall back: ncclGetUniqueId fails"
                        + " with 'invalid usage' (>= 2.24) and nccl-tests exits 3. The GPUs are not at fault.",
                ev, remedy, ENV_DOC + "#nccl-socket-ifname"));
    }

    private static List<Finding> connectionFailure(Facts f) {
        List<Warning> ws = f.failures.stream().filter(w -> "connection".equals(failureKind(w))).toList();
        if (ws.isEmpty()) {
            return List.of();
        }
        return List.of(new Finding("NET-CONNECTION-FAILURE", Severity.ERROR,
                "a socket connection between ranks was refused, reset or timed out",
                "Ranks could not reach each other over the interface NCCL chose. Usually a firewall, a different"
                        + " NCCL_SOCKET_IFNAME on some nodes, an interface that is not routable between nodes, or a"
                        + " rank that died first (read the earliest WARN).",
                warnEvidence(ws),
                List.of("compare the Bootstrap/NET/Socket interface lines of every host: they must be on one"
                                + " routable network", "nc -zv <peer address> <port>   # from the WARN line",
                        "check firewalls (iptables -L, security groups) between the nodes",
                        "export NCCL_SOCKET_IFNAME=<the data network interface> on every node"), NET_DOC));
    }

    private static List<Finding> verbsError(Facts f) {
        List<Warning> ws = f.failures.stream().filter(w -> "verbs".equals(failureKind(w))).toList();
        if (ws.isEmpty()) {
            return List.of();
        }
        boolean survived = ws.stream().allMatch(f::survived);
        return List.of(new Finding("IB-VERBS-ERROR", survived ? Severity.WARNING : Severity.ERROR,
                "InfiniBand/RoCE verbs reported an error" + (survived ? " during init; NCCL carried on" : ""),
                "An ibv_ call or an RDMA completion failed: a port or link problem, a GID mismatch on RoCE, memory"
                        + " registration refused (memlock), or a GPUDirect registration the driver refused.",
                warnEvidence(ws),
                List.of("ibstat | grep -E 'State:|Physical state:'   # expect Active / LinkUp",
                        "ibv_devinfo -v | grep -E 'state|link_layer|active_mtu'",
                        "ulimit -l   # expect unlimited (containers: IPC_LOCK and memlock)",
                        "RoCE: show_gids; set NCCL_IB_GID_INDEX to the RoCE v2 GID with an IP",
                        "perfquery / ibdiagnet for link errors; escalate to fabric bring-up if counters climb"),
                NET_DOC));
    }

    private static List<Finding> ncclError(Facts f) {
        List<Warning> ws = f.failures.stream().filter(w -> "error".equals(failureKind(w))).toList();
        if (ws.isEmpty() || f.failures.size() > ws.size()) {
            return List.of(); // a more specific rule explains it
        }
        return List.of(new Finding("NCCL-ERROR", Severity.ERROR, "NCCL reported a failure",
                "The log has NCCL errors but no WARN this tool can attribute. The earliest WARN or error line is"
                        + " usually the cause; later ones are ranks giving up.",
                warnEvidence(ws),
                List.of("rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,BOOTSTRAP,ENV,NET and read the first WARN",
                        "'unhandled system error': check /dev/shm size (docker --shm-size) and the interfaces"),
                NET_DOC));
    }

    private static List<Finding> socketFallback(Facts f) {
        boolean socketPath = f.overall == PathKind.SOCKET;
        if (!socketPath || !f.rdmaPresent()) {
            return List.of();
        }
        List<String> ev = new ArrayList<>(f.overallEvidence);
        f.e.socketIfaces().stream().limit(2).forEach(i -> ev.add(i.source() + ": NET/Socket uses " + i.name()
                + ":" + i.address()));
        f.e.noNetDevice().stream().limit(2).forEach(m -> ev.add(m.source() + ": NET/" + m.value()
                + " : No device found"));
        ev.addAll(f.rdmaEvidence.stream().limit(6).toList());
        List<String> remedy = new ArrayList<>();
        Optional<EnvSetting> disable = f.env("NCCL_IB_DISABLE");
        if (disable.isPresent() && !disable.get().value().equals("0")) {
            remedy.add("unset NCCL_IB_DISABLE   # set to " + disable.get().value() + " at "
                    + disable.get().source() + ": it forces sockets");
        }
        f.env("NCCL_NET").filter(s -> isSocket(s.value())).ifPresent(s ->
                remedy.add("unset NCCL_NET   # NCCL_NET=" + s.value() + " at " + s.source() + " forces sockets"));
        String hca = hcaName(f);
        Optional<EnvSetting> hcaEnv = f.env("NCCL_IB_HCA");
        if (hcaEnv.isPresent()) {
            remedy.add("ibv_devices   # NCCL_IB_HCA=" + hcaEnv.get().value() + " must match these names (prefix"
                    + " match; ^ excludes, = exact), or be unset");
        }
        if (!f.e.noNetDevice().isEmpty()) {
            remedy.add("ls /dev/infiniband   # inside the container: expect uverbsN and rdma_cm");
            remedy.add("Kubernetes: request the RDMA device-plugin resource (rdma/...) and attach the secondary"
                    + " network; docker: --device=/dev/infiniband --cap-add=IPC_LOCK --ulimit memlock=-1");
            remedy.add("ibv_devinfo   # fails or is absent: install rdma-core/libibverbs in the image");
        }
        if (hca != null) {
            remedy.add("export NCCL_IB_HCA=" + hca + "   # the HCA the host shows");
        } else {
            remedy.add("export NCCL_IB_HCA=<HCA from ibv_devices, e.g. mlx5_0>");
        }
        String used = f.e.socketIfaces().stream().map(Interface::name).findFirst().orElse("");
        String ipoib = concat(f.e.socketIfaces(), f.e.bootstrap()).stream().map(Interface::name)
                .map(n -> n.startsWith("oob:") ? n.substring(4) : n)
                .filter(n -> n.startsWith("ib") || n.startsWith("rdma")).findFirst().orElse("");
        remedy.add("export NCCL_SOCKET_IFNAME=" + (ipoib.isEmpty() ? "<the data NIC, e.g. rdma0 or ib0>" : ipoib)
                + (used.isEmpty() ? "" : "   # not " + used + "; or ^" + used + " to exclude it"));
        remedy.add("ulimit -l   # expect unlimited; Kubernetes: securityContext.capabilities.add: [IPC_LOCK]");
        remedy.add("ibstat | grep -E 'State:|Physical state:'   # Active/LinkUp, else a fabric fault");
        remedy.add("verify: NCCL_DEBUG=INFO shows 'Using network IB' (or IBext) and [send] via NET/IB/<n>/GDRDMA");
        return List.of(new Finding("NET-SOCKET-FALLBACK", Severity.ERROR,
                "inter-node traffic uses TCP sockets although RDMA hardware is present",
                "NCCL chose NET/Socket" + (used.isEmpty() ? "" : " over " + used) + " while the log shows RDMA"
                        + " devices. Sockets cap the job at a fraction of the fabric: on 10 GbE about 1.1 GB/s, on"
                        + " 100G 30-50% of line rate, with a host core pegged copying data.",
                ev, remedy, RUNBOOK + ", step 8; " + ENV_DOC));
    }

    private static List<Finding> socketNoRdma(Facts f) {
        if (f.overall != PathKind.SOCKET || f.rdmaPresent()) {
            return List.of();
        }
        List<String> ev = new ArrayList<>(f.overallEvidence);
        f.e.noNetDevice().stream().limit(2).forEach(m -> ev.add(m.source() + ": NET/" + m.value()
                + " : No device found"));
        boolean containerHint = !f.e.noNetDevice().isEmpty();
        return List.of(new Finding("NET-SOCKET-NO-RDMA", containerHint ? Severity.WARNING : Severity.INFO,
                "inter-node traffic uses TCP sockets; NCCL found no RDMA device",
                "Correct for nodes without IB/RoCE NICs. If these nodes do have them, NCCL cannot see them: in a"
                        + " container that is /dev/infiniband, IPC_LOCK, the RDMA device-plugin resource or missing"
                        + " verbs libraries.",
                ev, List.of("ibv_devices   # on the host and in the container: an RDMA NIC that only the host lists"
                        + " is the container's access", "ls /dev/infiniband",
                "compare busbw with the socket floor: ncclbench sweep --backend socket"), RUNBOOK + ", step 8"));
    }

    private static List<Finding> strayInterface(Facts f) {
        List<Interface> stray = f.e.socketIfaces().stream().filter(i -> {
            String n = i.name();
            return n.startsWith("docker") || n.startsWith("virbr") || n.startsWith("veth") || n.startsWith("br-")
                    || n.startsWith("lo");
        }).toList();
        if (stray.isEmpty()) {
            return List.of();
        }
        boolean used = !f.socket.isEmpty() || f.overall == PathKind.SOCKET;
        Set<String> names = new LinkedHashSet<>();
        stray.forEach(i -> names.add(i.name()));
        return List.of(new Finding("SOCKET-STRAY-INTERFACE", used ? Severity.WARNING : Severity.INFO,
                "NET/Socket includes " + String.join(", ", names) + ", a local bridge or loopback",
                "The socket transport spreads traffic over every interface that matches (up to 16), so a bridge"
                        + " that does not leave the host can carry, or stall, inter-node traffic."
                        + (used ? "" : " Sockets did not carry data in this log."),
                stray.stream().limit(4).map(i -> i.source() + ": NET/Socket uses " + i.name() + ":" + i.address())
                        .toList(),
                List.of("export NCCL_SOCKET_IFNAME=^docker,lo,virbr   # or name the data NIC exactly: =eth1"),
                ENV_DOC + "#nccl-socket-ifname"));
    }

    private static List<Finding> ibNoGdr(Facts f) {
        List<Connection> noGdr = f.ib.stream().filter(c -> !c.gdr()).toList();
        List<NcclLogEvidence.GdrStatus> disabled = f.e.gdr().stream().filter(g -> !g.enabled()).toList();
        boolean allNoGdr = !f.ib.isEmpty() && noGdr.size() == f.ib.size();
        boolean noLinesButDisabled = f.ib.isEmpty() && !disabled.isEmpty()
                && (f.overall == PathKind.RDMA || f.overall == PathKind.UNKNOWN);
        if (!allNoGdr && !noLinesButDisabled) {
            return List.of();
        }
        List<String> ev = new ArrayList<>();
        noGdr.stream().limit(4).forEach(c -> ev.add(describe(c)));
        disabled.stream().limit(4).forEach(g -> ev.add(g.source() + ": " + g.text()));
        List<String> remedy = new ArrayList<>();
        remedy.add("lsmod | grep -E 'nvidia_peermem|nv_peer_mem'   # GDR needs it, or DMA-BUF; sudo modprobe"
                + " nvidia_peermem");
        remedy.add("DMA-BUF instead: open kernel module driver, CUDA >= 11.7, kernel >= 5.12 (uname -r;"
                + " cat /proc/driver/nvidia/version)");
        remedy.add("sudo lspci -vvv | grep -E 'ReqRedir\\+|CmpltRedir\\+|UpstreamFwd\\+|SrcValid\\+'   # ACS on a"
                + " bridge between NIC and GPU: disable ACS");
        Optional<EnvSetting> level = f.env("NCCL_NET_GDR_LEVEL");
        if (level.isPresent()) {
            remedy.add("unset NCCL_NET_GDR_LEVEL   # " + level.get().value() + " at " + level.get().source()
                    + " may be stricter than the GPU-NIC distance (LOC PIX PXB PHB SYS)");
        } else {
            remedy.add("nvidia-smi topo -m   # GPU-NIC distance; beyond PXB NCCL disables GDR unless"
                    + " NCCL_NET_GDR_LEVEL=PHB (or SYS) is set");
        }
        if (f.e.netDevices().stream().anyMatch(d -> d.linkLayer().equalsIgnoreCase("RoCE"))) {
            remedy.add("show_gids on host and in the container: a different GID table blocks GPUDirect");
        }
        remedy.add("verify: [send] and [receive] lines end in /GDRDMA on every node");
        return List.of(new Finding("NET-IB-NO-GDR", Severity.ERROR,
                "RDMA is up but GPUDirect RDMA is off: data is staged through host memory",
                "The IB/RoCE transport carries the bytes, but without /GDRDMA every transfer bounces through a host"
                        + " buffer. Depending on the PCIe layout this costs 0% to about 50% of busbw.",
                ev, remedy, RUNBOOK + ", step 15; " + ENV_DOC + "#nccl-net-gdr-level-formerly-nccl-ib-gdr-level"));
    }

    private static List<Finding> gdrAsymmetric(Facts f) {
        long gdr = f.ib.stream().filter(Connection::gdr).count();
        if (gdr == 0 || gdr == f.ib.size()) {
            return List.of();
        }
        List<Finding> out = new ArrayList<>();
        // per node: some hosts with GDR everywhere, some without
        Map<String, long[]> perHost = new LinkedHashMap<>();
        for (Connection c : f.ib) {
            long[] n = perHost.computeIfAbsent(c.host(), h -> new long[2]);
            n[c.gdr() ? 0 : 1]++;
        }
        List<String> without = perHost.entrySet().stream().filter(x -> x.getValue()[0] == 0).map(Map.Entry::getKey)
                .toList();
        if (!without.isEmpty() && without.size() < perHost.size()) {
            out.add(new Finding("NET-GDR-ASYMMETRIC", Severity.ERROR,
                    "GPUDirect RDMA on some nodes only: " + String.join(", ", without) + " stage through host memory",
                    "One node without GDR slows every ring that passes through it. A stale OFED, a missing"
                            + " nvidia_peermem or ACS re-enabled on one node is the usual cause.",
                    f.ib.stream().filter(c -> without.contains(c.host())).limit(6).map(Diagnoser::describe).toList(),
                    List.of("on " + String.join(", ", without) + ": lsmod | grep nvidia_peermem",
                            "compare driver/OFED/NCCL versions across nodes (ofed_info -s; nvidia-smi)",
                            "sudo lspci -vvv | grep -E 'ReqRedir\\+|CmpltRedir\\+'   # ACS on that node"),
                    RUNBOOK + ", step 20"));
            return out;
        }
        long sendNo = f.ib.stream().filter(c -> !c.gdr() && c.direction() == Direction.SEND).count();
        long recvNo = f.ib.stream().filter(c -> !c.gdr() && c.direction() == Direction.RECEIVE).count();
        List<String> ev = f.ib.stream().filter(c -> !c.gdr()).limit(6).map(Diagnoser::describe).toList();
        if (recvNo == 0 && sendNo > 0) {
            out.add(new Finding("NET-GDR-ASYMMETRIC", Severity.INFO,
                    "GPUDirect RDMA on the receive side only",
                    "NCCL reads from GPU memory for sends only when NCCL_NET_GDR_READ is on (default for compute"
                            + " capability >= 8.0). On older GPUs this is expected.",
                    ev, List.of("export NCCL_NET_GDR_READ=1   # to try GDR on sends; compare busbw"), ENV_DOC));
        } else {
            out.add(new Finding("NET-GDR-ASYMMETRIC", Severity.ERROR,
                    "GPUDirect RDMA on some connections only",
                    "Some receive connections stage through host memory while others use GDRDMA: NIC-GPU distance"
                            + " differs by GPU (NCCL_NET_GDR_LEVEL) or a NIC lacks peer memory support.",
                    ev, List.of("nvidia-smi topo -m   # GPUs far from their NIC", "export NCCL_TOPO_DUMP_FILE="
                    + "/tmp/topo.xml   # and read the gdr attributes"), RUNBOOK + ", step 18"));
        }
        return out;
    }

    private static List<Finding> plugin(Facts f) {
        if (f.plugin.isEmpty()) {
            return List.of();
        }
        String name = f.plugin.get(0).netName();
        long gdr = f.plugin.stream().filter(Connection::gdr).count();
        return List.of(new Finding("NET-PLUGIN", Severity.INFO, "inter-node traffic uses the " + name
                + " network plugin" + (gdr == f.plugin.size() ? " with GPUDirect" : gdr == 0 ? " without GPUDirect" : ""),
                "A NET plugin (" + name + ") carries the bytes; judge its busbw against the fabric it drives.",
                f.plugin.stream().limit(4).map(Diagnoser::describe).toList(),
                gdr == f.plugin.size() ? List.of() : List.of("check the plugin's GPUDirect prerequisites (EFA:"
                        + " FI_EFA_USE_DEVICE_RDMA=1; TCPX/FasTrak: its dma-buf setup)"), NET_DOC));
    }

    private static List<Finding> pxn(Facts f) {
        List<Connection> p = f.net.stream().filter(c -> c.proxyRank() >= 0).toList();
        if (p.isEmpty()) {
            return List.of();
        }
        return List.of(new Finding("NET-PXN", Severity.INFO, "PXN: some sends go through a peer GPU's NIC",
                "NET/<net>/<dev>(<proxy rank>) means the data first moves over NVLink to the GPU next to the NIC.",
                p.stream().limit(3).map(Diagnoser::describe).toList(), List.of(), ENV_DOC + "#nccl-pxn-disable"));
    }

    private static List<Finding> intraShm(Facts f) {
        if (f.shm.isEmpty()) {
            return List.of();
        }
        List<String> remedy = new ArrayList<>();
        f.env("NCCL_P2P_DISABLE").filter(s -> s.value().equals("1")).ifPresent(s ->
                remedy.add("unset NCCL_P2P_DISABLE   # =1 at " + s.source() + " forces SHM"));
        f.env("NCCL_P2P_LEVEL").ifPresent(s -> remedy.add("unset NCCL_P2P_LEVEL   # " + s.value() + " at "
                + s.source()));
        remedy.add("nvidia-smi topo -p2p r   # OK expected between GPUs of one node");
        remedy.add("sudo lspci -vvv | grep -E 'ReqRedir\\+|CmpltRedir\\+'   # ACS forces P2P through the root complex");
        return List.of(new Finding("INTRA-SHM", Severity.WARNING,
                "GPUs of one node exchange data through host shared memory, not P2P",
                "SHM copies through host memory: P2P is disabled, unsupported by the platform, or blocked by ACS"
                        + " or virtualisation. On NVLink systems this costs most of the intra-node bandwidth.",
                f.shm.stream().limit(4).map(Diagnoser::describe).toList(), remedy, ENV_DOC + "#nccl-p2p-disable"));
    }

    private static List<Finding> collnet(Facts f) {
        List<Warning> ws = f.e.warnings().stream().filter(w -> w.message().contains("Cannot initialize CollNet"))
                .toList();
        if (ws.isEmpty()) {
            return List.of();
        }
        return List.of(new Finding("COLLNET-UNAVAILABLE", Severity.INFO,
                "CollNet (SHARP) could not initialise; NCCL uses point-to-point instead",
                "Not a failure: in-network reduction is off for this job.", warnEvidence(ws),
                List.of("if SHARP is expected: check the SHARP plugin (libnccl-net.so) and NCCL_COLLNET_ENABLE=1"),
                ENV_DOC));
    }

    private static List<Finding> otherWarnings(Facts f) {
        List<Warning> ws = f.e.warnings().stream().filter(w -> failureKind(w) == null
                && !w.message().contains("Cannot initialize CollNet") && !w.ncclFile().isEmpty()).toList();
        if (ws.isEmpty()) {
            return List.of();
        }
        return List.of(new Finding("NCCL-WARN", Severity.WARNING, ws.size() + " other NCCL WARN line(s)",
                "Warnings this tool does not interpret; read them, the first one first.", warnEvidence(ws),
                List.of(), NET_DOC));
    }

    private static List<Finding> versionMixed(Facts f) {
        if (f.e.ncclVersions().size() < 2) {
            return List.of();
        }
        return List.of(new Finding("NCCL-VERSION-MIXED", Severity.WARNING,
                "ranks run different NCCL versions",
                "Mixed versions can fail to connect or silently pick different algorithms.",
                f.e.ncclVersions().stream().map(v -> v.source() + ": NCCL " + v.version() + " on " + v.host())
                        .toList(), List.of("install one NCCL version on every node (pip nvidia-nccl-cu12/cu13 or"
                + " the system package)"), NET_DOC));
    }

    private static List<Finding> noPathEvidence(Facts f) {
        if (f.e.counts().ncclLines() == 0 || !f.e.connections().isEmpty() || f.initFailure || f.runFailure
                || f.overall == PathKind.LOOPBACK) {
            return List.of();
        }
        boolean guessed = f.overall != PathKind.UNKNOWN;
        return List.of(new Finding("NO-PATH-EVIDENCE", guessed ? Severity.INFO : Severity.WARNING,
                "the log has no connection lines (Channel ... via ...)",
                guessed ? "The path was inferred from NCCL's choice of network, not from connections."
                        : "Without them the path cannot be told; this is not a pass.",
                List.of(), List.of("export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET"), ENV_DOC + "#nccl-debug"));
    }

    private static List<Finding> initNotComplete(Facts f) {
        if (f.e.ranks().isEmpty() || f.initFailure) {
            return List.of();
        }
        List<NcclLogEvidence.RankInfo> open = f.e.ranks().stream().filter(r -> !r.initComplete()).toList();
        if (open.isEmpty()) {
            return List.of();
        }
        return List.of(new Finding("INIT-NOT-COMPLETE", Severity.WARNING,
                open.size() + " rank init(s) started without 'Init COMPLETE'",
                "Either the log was cut before the end of init, or these ranks hang or died during init.",
                open.stream().limit(6).map(r -> r.source() + ": rank " + r.rank() + "/" + r.nranks() + " on "
                        + r.host() + " pid " + r.pid() + " Init START").toList(),
                List.of("check that the log is complete; if ranks hang at init see the NCCL-hang runbook"),
                NET_DOC));
    }

    private static List<Finding> unusedLines(Facts f) {
        var c = f.e.counts();
        if (c.unused() == 0 && c.truncated() == 0 && c.dropped() == 0) {
            return List.of();
        }
        return List.of(new Finding("LOG-LINES-UNUSED", Severity.INFO,
                c.unused() + " of " + c.ncclLines() + " NCCL lines not used; " + c.truncated() + " cut; "
                        + c.dropped() + " items over the caps",
                "Lines this reader has no use for (topology, tuning, allocations) are counted, not errors.",
                List.of(), List.of(), "ncclbench"));
    }

    // ------------------------------------------------------------------ helpers

    /** "connection", "verbs", "error", "bootstrap" for WARN lines that mean a failure, else null. */
    static String failureKind(Warning w) {
        String m = w.message();
        String lower = m.toLowerCase(Locale.ROOT);
        if (lower.contains("no socket interface found")) {
            return "bootstrap";
        }
        if (lower.contains("connection refused") || lower.contains("connection reset")
                || lower.contains("timed out") || lower.contains("timeout") || lower.contains("connect to")
                && lower.contains("failed") || lower.contains("socketfinalizeaccept") || lower.contains("wrong type")
                || lower.contains("remote process exited") || lower.contains("broken pipe")) {
            return "connection";
        }
        if (lower.contains("ibv_") || lower.contains("got completion") || w.ncclFile().contains("net_ib")
                || lower.contains("completion with error") || lower.contains("vendor err")) {
            return "verbs";
        }
        if (w.ncclFile().isEmpty() || lower.contains("unhandled system error") || lower.contains("ncclsystemerror")
                || lower.contains("internal error")) {
            return "error";
        }
        return null;
    }

    static boolean isSocket(String net) {
        return net.equalsIgnoreCase("Socket");
    }

    static boolean isIb(String net) {
        String n = net.toUpperCase(Locale.ROOT);
        return n.startsWith("IB") || n.startsWith("ROCE") || n.equals("NCCL RDMA PLUGIN") || n.startsWith("MLX");
    }

    private static String hcaName(Facts f) {
        return f.e.hostRdma().stream().filter(m -> m.kind().equals("ibstat-ca") || m.kind().equals("ibv-device"))
                .map(Mention::value).findFirst()
                .or(() -> f.e.netDevices().stream().filter(d -> !isSocket(d.network())).map(d -> d.name())
                        .findFirst())
                .orElse(null);
    }

    /** "GDRDMA on send and receive", "send without GDRDMA"... for one pair's NET connections. */
    static String gdrSides(List<Connection> nets) {
        List<String> parts = new ArrayList<>();
        for (Direction d : Direction.values()) {
            List<Connection> side = nets.stream().filter(c -> c.direction() == d).toList();
            if (side.isEmpty()) {
                continue;
            }
            long g = side.stream().filter(Connection::gdr).count();
            String name = d == Direction.UNSPECIFIED ? "both sides" : d.name().toLowerCase(Locale.ROOT);
            parts.add(name + (g == side.size() ? " GDRDMA" : g == 0 ? " without GDRDMA" : " partly GDRDMA"));
        }
        return String.join(", ", parts);
    }

    static String describe(Connection c) {
        String side = c.direction() == Direction.SEND ? " [send]" : c.direction() == Direction.RECEIVE
                ? " [receive]" : "";
        String via = switch (c.transport()) {
            case NET -> "NET/" + c.netName() + "/" + c.netDev() + c.detail();
            default -> c.transport() + (c.detail().isEmpty() ? "" : "/" + c.detail());
        };
        String gdrNote = c.transport() == Transport.NET && !isSocket(c.netName()) && !c.gdr() ? " (no GDRDMA)" : "";
        return c.firstSeen() + ": " + c.fromRank() + " -> " + c.toRank() + side + " via " + via + gdrNote + " ("
                + c.channels() + " channel" + (c.channels() == 1 ? "" : "s") + (c.host().isEmpty() ? "" : ", "
                + c.host()) + ")";
    }

    private static List<String> warnEvidence(List<Warning> ws) {
        return ws.stream().limit(MAX_EVIDENCE).map(w -> w.source() + ": " + (w.ncclFile().isEmpty() ? ""
                : w.ncclFile() + ":" + w.ncclLine() + " ") + (w.ncclFile().isEmpty() ? "" : "WARN ") + w.message())
                .toList();
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
