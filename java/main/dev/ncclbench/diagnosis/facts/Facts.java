package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;
import dev.ncclbench.nccllog.NcclLogEvidence.EnvSetting;
import dev.ncclbench.nccllog.NcclLogEvidence.Interface;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;
import dev.ncclbench.nccllog.Networks;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the explain rules ask about a log, computed once from its {@link NcclLogEvidence} and immutable: the
 * connections by transport, the RDMA hints, the failure WARNs, the verdict per pair and overall. Rules are pure
 * functions of it.
 */
public final class Facts {
    private final NcclLogEvidence e;
    private final List<Connection> net;
    private final List<Connection> socket;
    private final List<Connection> ib;
    private final List<Connection> plugin;
    private final List<Connection> shm;
    private final List<Connection> p2p;
    private final List<String> rdmaEvidence;
    private final List<Warning> failures;
    private final List<PairVerdict> pairs;
    private final int nranks;
    private final boolean anyInitComplete;
    private final InitStall initStall;
    private final Set<String> completedProcesses;
    private final List<Warning> unexplained;
    private final Warning firstFailureWarning;
    private final NcclLogEvidence evidence;
    private final int ranksLogged;
    private final boolean multiNode;
    private final boolean singleNode;
    private final boolean oneHost;
    private final boolean gdrMixed;
    private final String ranksElsewhere;
    private final Optional<NcclLogEvidence.Mention> chosenNetwork;
    private final boolean initFailure;
    private final boolean runFailure;
    private final String firstFailure;
    private final Overall overall;
    private final HostRoutes hostRoutes;
    private final Survival survival;
    private final List<NicLoad> nicLoads;
    private final List<String> rdmaRequested;

    private Facts(NcclLogEvidence e) {
        this.e = e;
        List<Connection> net = new ArrayList<>(), socket = new ArrayList<>(), ib = new ArrayList<>(),
                plugin = new ArrayList<>(), shm = new ArrayList<>(), p2p = new ArrayList<>();
        for (Connection c : e.connections()) {
            switch (c.transport()) {
                case NET -> {
                    net.add(c);
                    (Networks.isSocket(c.netName()) ? socket : Networks.isIb(c.netName()) ? ib : plugin).add(c);
                }
                case SHM -> shm.add(c);
                case P2P -> p2p.add(c);
                default -> {
                }
            }
        }
        this.net = List.copyOf(net);
        this.socket = List.copyOf(socket);
        this.ib = List.copyOf(ib);
        this.plugin = List.copyOf(plugin);
        this.shm = List.copyOf(shm);
        this.p2p = List.copyOf(p2p);
        this.rdmaEvidence = List.copyOf(RdmaEvidence.of(e));
        this.anyInitComplete = e.ranks().stream().anyMatch(NcclLogEvidence.RankInfo::initComplete);
        this.initStall = InitStall.of(e);
        Set<String> completed = new HashSet<>();
        e.ranks().stream().filter(NcclLogEvidence.RankInfo::initComplete).forEach(r -> completed.add(r.host() + ':'
                + r.pid()));
        this.completedProcesses = Set.copyOf(completed);
        this.evidence = e;
        this.survival = new Survival(e, completedProcesses);
        this.nicLoads = NicLoads.of(e);
        this.rdmaRequested = List.copyOf(RdmaEvidence.requested(e));
        List<Warning> failures = new ArrayList<>();
        List<Warning> unexplained = new ArrayList<>();
        Warning first = null;
        for (Warning w : e.warnings()) {
            FailureKind k = FailureKind.of(w);
            if (k == FailureKind.NONE && !w.ncclFile().isEmpty()) {
                unexplained.add(w);
            }
            if (!k.failure()) {
                continue;
            }
            failures.add(w);
            if (survived(w)) {
                continue; // NCCL warned during this process's init and completed it (e.g. fell back from DMA-BUF)
            }
            boolean trace = w.function().equals(FailureKind.ERROR_RETURN);
            if (first == null || first.function().equals(FailureKind.ERROR_RETURN) && !trace) {
                first = w;
            }
        }
        this.failures = List.copyOf(failures);
        this.unexplained = List.copyOf(unexplained);
        this.firstFailureWarning = first;
        boolean afterInit = first != null && (first.afterInit() || first.pid() < 0 && anyInitComplete
                || runtimeOnly(first) && !initLogged(e, first));
        this.initFailure = first != null && !afterInit;
        this.runFailure = first != null && afterInit;
        this.firstFailure = first == null ? "" : Lines.describeFailure(e, first);
        this.ranksLogged = ranksLogged(e);
        this.nranks = nranks(e);
        this.chosenNetwork = e.networks().stream().filter(m -> m.kind().equals("network")).findFirst();
        // nodes, not host names: containers of one machine log under names of their own, and NCCL's nNodes or the
        // P2P/SHM lines joining every rank say one node; ranks the log never shows, with a network chosen, say more
        this.singleNode = net.isEmpty() && Scope.singleNode(e, nranks);
        boolean elsewhere = Scope.ranksElsewhere(e, nranks, chosenNetwork.or(() -> Scope.plugin(e)), first != null);
        this.multiNode = !singleNode && (e.hosts().size() > 1 || e.topology().stream().anyMatch(m
                -> m.kind().equals("nodes") && Integer.parseInt(m.value()) > 1) || elsewhere
                || Scope.testsHosts(e).size() > 1);
        // one named host and nothing that says more: a network it initialised, without a NET connection line, carries
        // nothing (a job cut before its connection lines, a one-node job whose excerpt shows no job size)
        this.oneHost = !multiNode && (e.hosts().size() == 1 && Scope.ranksShown(e) >= nranks
                || e.hosts().size() <= 1 && Scope.testsHosts(e).size() == 1 && Scope.testsRankRows(e) >= nranks);
        this.ranksElsewhere = !singleNode && elsewhere ? "the log shows " + Scope.ranksShown(e) + " of " + nranks
                + " ranks, the others are on other nodes" : "";
        this.pairs = RouteJudge.pairs(e.connections());
        this.hostRoutes = HostRoutes.of(e);
        this.gdrMixed = Gdr.mixed(e, this.ib);
        this.overall = RouteJudge.overall(this);
    }

    /** Families NCCL can only hit once connections carry data: without init lines they still mean a run failure. */
    private static boolean runtimeOnly(Warning w) {
        FailureKind k = FailureKind.of(w);
        return k == FailureKind.IB_COMPLETION || k == FailureKind.PEER_LOST || k == FailureKind.ASYNC;
    }

    /** Whether the log has any init line of the warning's process (any at all, for lines without a process). */
    private static boolean initLogged(NcclLogEvidence e, Warning w) {
        return w.pid() < 0 ? !e.ranks().isEmpty()
                : e.ranks().stream().anyMatch(r -> r.host().equals(w.host()) && r.pid() == w.pid());
    }

    /** The job size from every line that names ranks: init lines, nRanks, ring orders, connection lines. */
    private static int nranks(NcclLogEvidence e) {
        int n = e.ranks().stream().mapToInt(NcclLogEvidence.RankInfo::nranks).max().orElse(0);
        for (var m : e.topology()) {
            if (m.kind().equals("ranks") || m.kind().equals("ring-ranks")) {
                n = Math.max(n, Integer.parseInt(m.value()));
            }
        }
        for (Connection c : e.connections()) {
            n = Math.max(n, Math.max(c.fromRank(), c.toRank()) + 1);
        }
        return Math.max(n, Scope.testsRanks(e));
    }

    /** Ranks whose own lines are in the log: init lines name them; without those, count the processes. */
    private static int ranksLogged(NcclLogEvidence e) {
        Set<Integer> ranks = new HashSet<>();
        e.ranks().forEach(r -> ranks.add(r.rank()));
        if (!ranks.isEmpty()) {
            return ranks.size();
        }
        return (int) e.processes().stream().filter(p -> p.pid() >= 0).map(p -> p.host() + ':' + p.pid()).distinct()
                .count();
    }

    public static Facts of(NcclLogEvidence e) {
        return new Facts(e);
    }

    /** An interface name without the "oob:" prefix the reader gives NET/IB's out-of-band interface. */
    public static String unOob(String name) {
        return name.startsWith("oob:") ? name.substring(4) : name;
    }

    public NcclLogEvidence evidence() {
        return e;
    }

    /** NET connections, every network. */
    public List<Connection> net() {
        return net;
    }

    public List<Connection> socket() {
        return socket;
    }

    /** NET connections over IB or RoCE (NCCL's transport or an IB plugin). */
    public List<Connection> ib() {
        return ib;
    }

    /** NET connections over another plugin (AWS Libfabric, TCPX, ...). */
    public List<Connection> plugin() {
        return plugin;
    }

    public List<Connection> shm() {
        return shm;
    }

    public List<Connection> p2p() {
        return p2p;
    }

    /** Lines that show RDMA hardware or settings (devices, GDR lines, host tools, NCCL_IB_*, IPoIB interfaces). */
    public List<String> rdmaEvidence() {
        return rdmaEvidence;
    }

    public boolean rdmaPresent() {
        return !rdmaEvidence.isEmpty();
    }

    /** The job's own settings that ask for RDMA (NCCL_IB_HCA, NCCL_NET=IB, ...), one line each; see RdmaEvidence. */
    public List<String> rdmaRequested() {
        return rdmaRequested;
    }

    /** WARN and error lines that mean a failure, in log order. */
    public List<Warning> failures() {
        return failures;
    }

    public List<Warning> failures(FailureKind kind) {
        return failures.stream().filter(w -> FailureKind.of(w) == kind).toList();
    }

    public List<PairVerdict> pairs() {
        return pairs;
    }

    /** The largest nranks an init line names; 0 when none does. */
    public int nranks() {
        return nranks;
    }

    /** A failure before any rank completed init. */
    public boolean initFailure() {
        return initFailure;
    }

    /** Ranks that never completed init while peers of the same job did: the job stopped in init. */
    public InitStall initStall() {
        return initStall;
    }

    /** A failure after init completed. */
    public boolean runFailure() {
        return runFailure;
    }

    /** "first on HOST (rank R, pid P) at file:line (nccl.cc:N): message" for the failure that ended the job, or "". */
    public String firstFailure() {
        return firstFailure;
    }

    /**
     * A failure line the job went on after (see {@link Survival}): its process completed the init it came in, its own
     * rank made progress after it (a connection, a chosen network, Init COMPLETE) or a results table follows, it came
     * after teardown, or it is an error return handled elsewhere; never a rendezvous failure, the application's own
     * error line, a WARN after init, or a line of a rank that never completed its init.
     */
    public boolean survived(Warning w) {
        return survival.survived(w);
    }

    /** WARN lines no family explains: they keep a diagnosis from being certain. */
    public List<Warning> unexplained() {
        return unexplained;
    }

    /** The failure that ended the job (the earliest WARN of a failure family NCCL did not survive), or null. */
    public Warning firstFailureWarning() {
        return firstFailureWarning;
    }

    /** How many ranks have lines of their own in the log (init lines, or processes when those are missing). */
    public int ranksLogged() {
        return ranksLogged;
    }

    /**
     * More than one node: NET connections were made, NCCL said nNodes > 1, hosts of several names logged (unless
     * {@link #singleNode()}), or the job has ranks the log never shows while NCCL chose a network other than sockets.
     */
    public boolean multiNode() {
        return multiNode || !net.isEmpty() || hostRoutes.lines() > 0;
    }

    /** The inter-node path of every host that printed NET connection lines, whatever the caps on the lists. */
    /** What each NIC of each host carried, judged against its siblings (see {@link NicLoads}). */
    public List<NicLoad> nicLoads() {
        return nicLoads;
    }

    public HostRoutes hostRoutes() {
        return hostRoutes;
    }

    /**
     * One node for certain, whatever network NCCL brought up ("Using network X" then names no path): NCCL said nNodes
     * 1, or the P2P/SHM lines join every rank of the job; and no NET connection line is in the log.
     */
    public boolean singleNode() {
        return singleNode && hostRoutes.lines() == 0;
    }

    /**
     * Everything says one host, though nothing proves one node: one named host (or nccl-tests' device rows on one host),
     * no sign of another node, and no rank of a known job size missing from the log.
     */
    public boolean oneHost() {
        return oneHost && net.isEmpty() && hostRoutes.lines() == 0;
    }

    /**
     * IB/RoCE connection lines with /GDRDMA and others without, over the whole log (every host's lines, past the
     * list's caps): GPUDirect on one side or some nodes only, whichever pairs the excerpt shows.
     */
    public boolean gdrMixed() {
        return gdrMixed;
    }

    /** "the log shows 8 of 16 ranks, the others are on other nodes" when that is what makes the job multi-node. */
    public String ranksElsewhere() {
        return ranksElsewhere;
    }

    /** NCCL's "Using network X" (the first), if any: what NCCL set up, which carries bytes only between nodes. */
    public Optional<NcclLogEvidence.Mention> chosenNetwork() {
        return chosenNetwork;
    }

    /** The line that shows NVLS set up, if any: a capability, since NVLS prints no line per connection it carries. */
    public Optional<NcclLogEvidence.Mention> nvlsSetUp() {
        return Scope.nvlsSetUp(e);
    }

    /** The line that shows CollNet (SHARP) connected, if any. */
    public Optional<NcclLogEvidence.Mention> collnetUsed() {
        return Scope.collnetUsed(e);
    }

    /** The NET plugin NCCL chose or brought up (not IB, not Socket), when no connection line names the network. */
    public Optional<NcclLogEvidence.Mention> pluginNet() {
        return Scope.plugin(e);
    }

    /** The plugin's provider ("efa"), or "". */
    public String provider() {
        return Scope.provider(e);
    }

    /** The fabric a plugin serves, in words ("provider efa (AWS EFA)"), or "". */
    public String pluginFabric(String plugin) {
        return Scope.fabricOf(plugin, provider());
    }

    public Overall overall() {
        return overall;
    }

    public RouteKind path() {
        return overall == null ? RouteKind.UNKNOWN : overall.path();
    }

    public Optional<EnvSetting> env(String name) {
        return e.envValue(name);
    }

    /** The HCA name that host tools (or NCCL) show, for remedies; null when none. */
    public String hcaName() {
        return e.hostRdma().stream().filter(m -> m.kind().equals("ibstat-ca") || m.kind().equals("ibv-device"))
                .map(NcclLogEvidence.Mention::value).findFirst()
                .or(() -> e.netDevices().stream().filter(d -> !Networks.isSocket(d.network()))
                        .map(NcclLogEvidence.NetDevice::name).findFirst())
                .orElse(null);
    }
}
