package dev.ncclbench.nccllog;

import dev.ncclbench.nccllog.NcclLogEvidence.Connection;
import dev.ncclbench.nccllog.NcclLogEvidence.EnvSetting;
import dev.ncclbench.nccllog.NcclLogEvidence.GdrStatus;
import dev.ncclbench.nccllog.NcclLogEvidence.Interface;
import dev.ncclbench.nccllog.NcclLogEvidence.MeasuredRow;
import dev.ncclbench.nccllog.NcclLogEvidence.Mention;
import dev.ncclbench.nccllog.NcclLogEvidence.NetDevice;
import dev.ncclbench.nccllog.NcclLogEvidence.ProcessInfo;
import dev.ncclbench.nccllog.NcclLogEvidence.RankInfo;
import dev.ncclbench.nccllog.NcclLogEvidence.Versioned;
import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the line parsers found, deduplicated and capped: every collection holds at most {@code maxItems} items
 * (warnings {@value #MAX_WARNINGS}, then only WARNs from a source location not seen yet, up to
 * {@value #MAX_WARNING_SITES}); what does not fit is counted in {@code dropped}. The one place that knows the caps,
 * so a 1 GB log costs the same memory as a 1 MB one. The {@link HostTable} is not capped by item: it is what a
 * verdict over every host reads. Every collection is also listed in {@link #merge}.
 */
final class Accumulator {
    static final int MAX_WARNINGS = 512;
    /** Past the first warnings, one per NCCL source location: a failure on rank 8000 is not lost behind 512 retries. */
    static final int MAX_WARNING_SITES = 4096;
    /** Pasted nccl-tests rows: a table, not one item per rank, so the old cap stays. */
    static final int MAX_MEASURED = 4096;

    private final int maxItems;
    private final List<String> sources = new ArrayList<>();
    private final Map<String, Versioned> nccl = new LinkedHashMap<>();
    private final Map<String, Versioned> cuda = new LinkedHashMap<>();
    private final Map<String, ProcessInfo> processes = new LinkedHashMap<>();
    private final Map<String, RankInfo> ranks = new LinkedHashMap<>();
    private final Map<String, Interface> bootstrap = new LinkedHashMap<>();
    private final Map<String, Interface> socketIfaces = new LinkedHashMap<>();
    private final Map<String, NetDevice> netDevices = new LinkedHashMap<>();
    private final Map<String, Mention> noNetDevice = new LinkedHashMap<>();
    private final Map<String, Mention> networks = new LinkedHashMap<>();
    private final Map<String, GdrStatus> gdr = new LinkedHashMap<>();
    private final Map<String, ConnectionLines.Aggregate> connections = new LinkedHashMap<>();
    private final Map<String, Mention> nvls = new LinkedHashMap<>();
    private final Map<String, Mention> collnet = new LinkedHashMap<>();
    private final List<Warning> warnings = new ArrayList<>();
    private final Map<String, EnvSetting> env = new LinkedHashMap<>();
    private final Map<String, Mention> hostRdma = new LinkedHashMap<>();
    private final List<MeasuredRow> measured = new ArrayList<>();
    private final Map<String, Mention> rings = new LinkedHashMap<>();
    private final Map<String, Mention> topology = new LinkedHashMap<>();
    private final Map<String, Mention> tuning = new LinkedHashMap<>();
    private final Set<String> initDone = new HashSet<>();
    private final ProgressTable progress;
    private final Set<String> warningSites = new HashSet<>();
    private final HostTable hosts = new HostTable();
    /** The (host, pid, file) of the last line: a process's lines come in runs, its key is built once per run. */
    private String lastHost;
    private long lastPid = Long.MIN_VALUE;
    private String lastFile;

    long total;
    long ncclLines;
    long used;
    long other;
    long truncated;
    long dropped;

    Accumulator(int maxItems) {
        this.maxItems = maxItems;
        this.progress = new ProgressTable(maxItems);
    }

    void source(String name) {
        if (sources.size() < maxItems) {
            sources.add(name);
        } else {
            dropped++;
        }
    }

    /** Whether another line of {@code p}'s process in {@code file} would change nothing here ({@link #process}). */
    boolean processSeen(LineParser.Parsed p, String file) {
        return hosts.seen(p.host, p.pid, file);
    }

    void process(LineParser.Parsed p, String file, long lineNo) {
        if (p.pid == lastPid && file == lastFile && p.host.equals(lastHost)) {
            return;
        }
        lastHost = p.host;
        lastPid = p.pid;
        lastFile = file;
        HostTable.State h = hosts.of(p.host, file, lineNo);
        if (h.seenIn(p.pid, file)) {
            return; // ranks interleaved in one file (one per node): the key below is built once per process
        }
        String key = p.host + ':' + p.pid + ':' + file;
        if (!processes.containsKey(key)) {
            put(processes, key, new ProcessInfo(p.host, p.pid, p.dev, new SourceRef(file, lineNo)));
        }
        h.pid(p.pid);
    }

    /** A line that shows its process going on: a connection, a chosen network, Init COMPLETE ({@link ProgressTable}). */
    void progress(String host, long pid, String device, String file, long lineNo, boolean initComplete) {
        progress.progress(host, pid, device, file, lineNo, initComplete);
    }

    /** A NET connection line, counted for its host whatever the caps on the connection list. */
    void hostNet(String host, String network, boolean gdr, String file, long lineNo) {
        hosts.of(host, file, lineNo).netLine(network, gdr, file, lineNo);
    }

    void ncclVersion(String v, String host, String file, long lineNo) {
        version(nccl, v, host, file, lineNo);
    }

    void cudaVersion(String v, String host, String file, long lineNo) {
        version(cuda, v, host, file, lineNo);
    }

    private void version(Map<String, Versioned> map, String v, String host, String file, long lineNo) {
        if (!map.containsKey(v)) {
            put(map, v, new Versioned(v, host, new SourceRef(file, lineNo)));
        }
    }

    /** A rank's init line; an Init COMPLETE replaces its Init START. */
    void rank(RankInfo r) {
        if (r.initComplete()) {
            initDone.add(r.host() + ':' + r.pid());
        }
        String key = r.host() + '|' + r.pid() + '|' + r.rank() + '|' + r.nranks() + '|' + r.cudaDev();
        RankInfo old = ranks.get(key);
        if (old == null) {
            put(ranks, key, r);
        } else if (r.initComplete() && !old.initComplete()) {
            ranks.put(key, r);
        }
    }

    /** Whether this process printed Init COMPLETE before now. */
    boolean initDone(String host, long pid) {
        return initDone.contains(host + ':' + pid);
    }

    void bootstrap(Interface i, long pid) {
        iface(bootstrap, i, pid);
    }

    void socketInterface(Interface i, long pid) {
        iface(socketIfaces, i, pid);
    }

    private void iface(Map<String, Interface> into, Interface i, long pid) {
        String key = i.host() + '|' + i.name() + '|' + pid;
        if (!into.containsKey(key)) {
            put(into, key, i);
        }
    }

    void netDevice(String host, String network, int index, String name, int port, String link, String file,
                   long lineNo) {
        String key = host + '|' + network + '|' + index + '|' + name + '|' + port;
        if (!netDevices.containsKey(key)) {
            put(netDevices, key, new NetDevice(host, network, index, name, port, link, new SourceRef(file, lineNo)));
        }
    }

    void noNetDevice(String network, String host, String file, long lineNo) {
        mention(noNetDevice, "no-device", network, host, file, lineNo);
    }

    /** kind: "network" (the chosen one), "plugin", "plugin-failed". */
    void network(String kind, String value, String host, String file, long lineNo) {
        mention(networks, kind, value, host, file, lineNo);
        if (kind.equals("network")) {
            hosts.of(host, file, lineNo).chose(value);
        }
    }

    void gdr(String host, String network, int hca, String hcaName, boolean enabled, boolean dmabuf, String text,
             String file, long lineNo) {
        String key = host + '|' + network + '|' + hca + '|' + hcaName + '|' + enabled + '|' + text.hashCode();
        if (!gdr.containsKey(key)) {
            put(gdr, key, new GdrStatus(host, network, hca, hcaName, enabled, dmabuf, text, new SourceRef(file, lineNo)));
        }
    }

    /** The aggregate already kept for this key, or null. */
    ConnectionLines.Aggregate connection(String key) {
        return connections.get(key);
    }

    /** Keeps a new aggregate; false when the cap is reached (counted in dropped). */
    boolean newConnection(String key, ConnectionLines.Aggregate agg) {
        if (connections.size() >= maxItems) {
            dropped++;
            return false;
        }
        connections.put(key, agg);
        return true;
    }

    void nvls(String text, String host, String file, long lineNo) {
        mention(nvls, "nvls", text, host, file, lineNo);
    }

    void collnet(String text, String host, String file, long lineNo) {
        mention(collnet, "collnet", text, host, file, lineNo);
    }

    void ring(String text, String host, String file, long lineNo) {
        mention(rings, "rings", text, host, file, lineNo);
    }

    /** kind: "ranks" (nRanks), "nodes" (nNodes), "ring-ranks" (ranks a ring lists). */
    void topology(String kind, String value, String host, String file, long lineNo) {
        mention(topology, kind, value, host, file, lineNo);
    }

    /** kind: the collective ("AllReduce", "" when not printed); value: "SIZE ALGO PROTO" (TuningLines). */
    void tuning(String collective, String value, String host, String file, long lineNo) {
        mention(tuning, collective, value, host, file, lineNo);
    }

    void hostRdma(String kind, String value, String file, long lineNo) {
        mention(hostRdma, kind, value, "", file, lineNo);
    }

    /** Stores a warning; false when the warning cap is reached (counted). */
    boolean warning(Warning w) {
        boolean newSite = warningSites.size() < MAX_WARNING_SITES && warningSites.add(site(w));
        if (warnings.size() < MAX_WARNINGS || newSite && warnings.size() < MAX_WARNING_SITES) {
            warnings.add(w);
            return true;
        }
        dropped++;
        return false;
    }

    /** NCCL's source location, or for lines without one the message without its numbers (pids, addresses). */
    private static String site(Warning w) {
        if (!w.ncclFile().isEmpty()) {
            return w.ncclFile() + ':' + w.ncclLine() + ' ' + w.function();
        }
        String m = w.message();
        StringBuilder sb = new StringBuilder(Math.min(m.length(), 80));
        for (int i = 0; i < m.length() && sb.length() < 80; i++) {
            char c = m.charAt(i);
            if (!Character.isDigit(c)) {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Appends a continuation line to the last warning, if it is still w. */
    void continueWarning(Warning w, String more) {
        int idx = warnings.size() - 1;
        if (idx >= 0 && warnings.get(idx) == w) {
            warnings.set(idx, new Warning(w.host(), w.pid(), w.device(), w.ncclFile(), w.ncclLine(), w.function(),
                    w.message() + " " + more, w.afterInit(), w.source()));
        }
    }

    /** An NCCL_ variable; values of secret-looking names are redacted. */
    void env(String name, String value, String origin, String file, long lineNo) {
        String upper = name.toUpperCase(Locale.ROOT);
        if (upper.contains("KEY") || upper.contains("TOKEN") || upper.contains("PASSWORD")
                || upper.contains("SECRET")) {
            value = "<redacted>";
        }
        String key = name + '|' + value + '|' + origin;
        if (!env.containsKey(key)) {
            put(env, key, new EnvSetting(name, value, origin, new SourceRef(file, lineNo)));
        }
    }

    boolean measuredFull() {
        return measured.size() >= Math.min(maxItems, MAX_MEASURED);
    }

    void measured(MeasuredRow r) {
        if (!measuredFull()) {
            measured.add(r);
        }
    }

    private void mention(Map<String, Mention> into, String kind, String value, String host, String file,
                         long lineNo) {
        String key = host + '|' + kind + '|' + value;
        if (!into.containsKey(key)) {
            put(into, key, new Mention(host, kind, value, new SourceRef(file, lineNo)));
        }
    }

    private <V> void put(Map<String, V> map, String key, V v) {
        if (map.size() < maxItems) {
            map.put(key, v);
        } else {
            dropped++;
        }
    }

    /**
     * Adds what another accumulator read after what this one read, as if its lines had come next: the same keys,
     * caps and first-seen order as one reader over both (files read in parallel are merged in file order).
     */
    void merge(Accumulator o) {
        o.sources.forEach(this::source);
        mergeMap(nccl, o.nccl);
        mergeMap(cuda, o.cuda);
        mergeMap(processes, o.processes);
        progress.merge(o.progress);
        o.ranks.values().forEach(this::rank);
        initDone.addAll(o.initDone);
        mergeMap(bootstrap, o.bootstrap);
        mergeMap(socketIfaces, o.socketIfaces);
        mergeMap(netDevices, o.netDevices);
        mergeMap(noNetDevice, o.noNetDevice);
        mergeMap(networks, o.networks);
        mergeMap(gdr, o.gdr);
        o.connections.forEach((k, agg) -> {
            ConnectionLines.Aggregate mine = connections.get(k);
            if (mine == null) {
                newConnection(k, agg);
            } else {
                mine.add(agg);
            }
        });
        mergeMap(nvls, o.nvls);
        mergeMap(collnet, o.collnet);
        o.warnings.forEach(this::warning);
        mergeMap(env, o.env);
        mergeMap(hostRdma, o.hostRdma);
        o.measured.forEach(this::measured);
        mergeMap(rings, o.rings);
        mergeMap(topology, o.topology);
        mergeMap(tuning, o.tuning);
        hosts.merge(o.hosts);
        total += o.total;
        ncclLines += o.ncclLines;
        used += o.used;
        other += o.other;
        truncated += o.truncated;
        dropped += o.dropped;
    }

    private <V> void mergeMap(Map<String, V> into, Map<String, V> from) {
        from.forEach((k, v) -> {
            if (!into.containsKey(k)) {
                put(into, k, v);
            }
        });
    }

    NcclLogEvidence build() {
        List<Connection> conns = new ArrayList<>(connections.size());
        for (ConnectionLines.Aggregate a : connections.values()) {
            conns.add(a.freeze());
        }
        return NcclLogEvidence.builder().sources(List.copyOf(sources)).ncclVersions(List.copyOf(nccl.values()))
                .cudaVersions(List.copyOf(cuda.values())).processes(List.copyOf(processes.values()))
                .ranks(List.copyOf(ranks.values())).bootstrap(List.copyOf(bootstrap.values()))
                .socketIfaces(List.copyOf(socketIfaces.values())).netDevices(List.copyOf(netDevices.values()))
                .noNetDevice(List.copyOf(noNetDevice.values())).networks(List.copyOf(networks.values()))
                .gdr(List.copyOf(gdr.values())).connections(List.copyOf(conns)).nvls(List.copyOf(nvls.values()))
                .collnet(List.copyOf(collnet.values())).warnings(List.copyOf(warnings))
                .env(List.copyOf(env.values())).hostRdma(List.copyOf(hostRdma.values()))
                .measured(List.copyOf(measured)).rings(List.copyOf(rings.values()))
                .topology(List.copyOf(topology.values())).tuning(List.copyOf(tuning.values()))
                .progress(progress.freeze()).hostFacts(hosts.freeze())
                .counts(new NcclLogEvidence.LineCounts(total, ncclLines, used, ncclLines - used, other, truncated,
                        dropped))
                .build();
    }
}
