package dev.ncclbench.diagnosis.facts;

import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogEvidence.Connection;
import dev.ncclbench.nccllog.NcclLogEvidence.EnvSetting;
import dev.ncclbench.nccllog.NcclLogEvidence.Interface;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
    private final boolean initFailure;
    private final boolean runFailure;
    private final String firstFailure;
    private final Overall overall;

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
        this.nranks = e.ranks().stream().mapToInt(NcclLogEvidence.RankInfo::nranks).max().orElse(0);
        this.rdmaEvidence = List.copyOf(rdmaEvidence(e));
        this.anyInitComplete = e.ranks().stream().anyMatch(NcclLogEvidence.RankInfo::initComplete);
        List<Warning> failures = new ArrayList<>();
        boolean init = false, run = false;
        String first = "";
        for (Warning w : e.warnings()) {
            if (FailureKind.of(w) == FailureKind.NONE) {
                continue;
            }
            failures.add(w);
            if (anyInitComplete && !w.afterInit()) {
                continue; // NCCL warned during init and carried on (e.g. fell back from DMA-BUF)
            }
            if (anyInitComplete) {
                run = true;
            } else {
                init = true;
            }
            if (first.isEmpty()) {
                first = w.message();
            }
        }
        this.failures = List.copyOf(failures);
        this.initFailure = init;
        this.runFailure = run;
        this.firstFailure = first;
        this.pairs = PathJudge.pairs(e.connections());
        this.overall = PathJudge.overall(this);
    }

    public static Facts of(NcclLogEvidence e) {
        return new Facts(e);
    }

    private static List<String> rdmaEvidence(NcclLogEvidence e) {
        List<String> out = new ArrayList<>();
        for (var d : e.netDevices()) {
            if (!Networks.isSocket(d.network())) {
                out.add(d.source() + ": NCCL sees " + d.network() + " device " + d.name() + ":" + d.port()
                        + (d.linkLayer().isEmpty() ? "" : "/" + d.linkLayer()));
            }
        }
        for (var g : e.gdr()) {
            out.add(g.source() + ": " + g.text());
        }
        for (var m : e.hostRdma()) {
            out.add(m.source() + ": " + m.kind() + " " + m.value());
        }
        for (var m : e.networks()) {
            if (m.kind().equals("plugin-failed") && Networks.isIb(m.value())) {
                out.add(m.source() + ": NET plugin " + m.value() + " failed to initialise");
            }
        }
        for (String v : List.of("NCCL_IB_HCA", "NCCL_IB_DISABLE", "NCCL_IB_GID_INDEX")) {
            e.envValue(v).ifPresent(s -> out.add(s.source() + ": " + s.name() + "=" + s.value() + " (" + s.origin()
                    + ")"));
        }
        List<Interface> ifaces = new ArrayList<>(e.socketIfaces());
        ifaces.addAll(e.bootstrap());
        for (Interface i : ifaces) {
            String n = unOob(i.name());
            if (n.startsWith("ib") || n.startsWith("rdma")) {
                out.add(i.source() + ": interface " + n + " (IPoIB or RDMA netdev)");
            }
        }
        return out;
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

    /** A failure after init completed. */
    public boolean runFailure() {
        return runFailure;
    }

    /** The message of the first failure that ended the job, or "". */
    public String firstFailure() {
        return firstFailure;
    }

    /** A failure WARN that NCCL survived: it warned before init and init still completed. */
    public boolean survived(Warning w) {
        return anyInitComplete && !w.afterInit();
    }

    public Overall overall() {
        return overall;
    }

    public PathKind path() {
        return overall == null ? PathKind.UNKNOWN : overall.path();
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
