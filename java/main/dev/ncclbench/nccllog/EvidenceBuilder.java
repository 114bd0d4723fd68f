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
 * Accumulates what one or many streams say. Every collection is capped at {@code maxItems}; items past the
 * cap are counted in {@code dropped}. Package-private: {@link NcclLogReader} is the public face.
 */
final class EvidenceBuilder {
    private static final int MAX_WARNINGS = 512;
    private static final int MAX_CONTINUATION = 300;

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
    private final Map<String, ConnAgg> connections = new LinkedHashMap<>();
    private final Map<String, Mention> nvls = new LinkedHashMap<>();
    private final List<Warning> warnings = new ArrayList<>();
    private final Map<String, EnvSetting> env = new LinkedHashMap<>();
    private final Map<String, Mention> hostRdma = new LinkedHashMap<>();
    private final List<MeasuredRow> measured = new ArrayList<>();
    private final Map<String, Mention> rings = new LinkedHashMap<>();
    private final Set<String> initDone = new HashSet<>();

    private long total;
    private long ncclLines;
    private long used;
    private long other;
    private long truncated;
    private long dropped;

    /** A WARN that may continue on the next line (NCCL's message wrapped by a terminal or a pipe). */
    private Warning pendingWarn;

    private static final class ConnAgg {
        final String host;
        final int from;
        final int to;
        final Direction dir;
        final Transport transport;
        final String detail;
        final String net;
        final int dev;
        final int proxy;
        final boolean gdr;
        final boolean shared;
        final SourceRef first;
        long lines;
        long chanLo;
        long chanHi;
        int chanOther;

        ConnAgg(String host, int from, int to, Direction dir, Transport transport, String detail, String net,
                int dev, int proxy, boolean gdr, boolean shared, SourceRef first) {
            this.host = host;
            this.from = from;
            this.to = to;
            this.dir = dir;
            this.transport = transport;
            this.detail = detail;
            this.net = net;
            this.dev = dev;
            this.proxy = proxy;
            this.gdr = gdr;
            this.shared = shared;
            this.first = first;
        }

        void channel(int c) {
            if (c >= 0 && c < 64) {
                chanLo |= 1L << c;
            } else if (c >= 64 && c < 128) {
                chanHi |= 1L << (c - 64);
            } else {
                chanOther = 1;
            }
        }

        Connection freeze() {
            int ch = Long.bitCount(chanLo) + Long.bitCount(chanHi) + chanOther;
            return new Connection(host, from, to, dir, transport, detail, net, dev, proxy, gdr, shared, ch, lines,
                    first);
        }
    }

    EvidenceBuilder(int maxItems) {
        this.maxItems = maxItems;
    }

    void source(String name) {
        if (sources.size() < maxItems) {
            sources.add(name);
        } else {
            dropped++;
        }
        pendingWarn = null;
    }

    void truncatedLine() {
        truncated++;
    }

    /** One line of input; file and lineNo say where it came from. */
    void accept(LineParser.Parsed p, String file, long lineNo) {
        total++;
        if (p.level == LineParser.Level.NONE) {
            other++;
            otherLine(p.line, file, lineNo);
            return;
        }
        pendingWarn = null;
        ncclLines++;
        boolean ok;
        try {
            ok = switch (p.level) {
                case INFO -> info(p, file, lineNo);
                case BARE -> bare(p, file, lineNo);
                case WARN -> warn(p, file, lineNo);
                default -> false;
            };
        } catch (RuntimeException e) {
            // a malformed line never stops the reader: it is simply not used
            ok = false;
        }
        if (!p.host.isEmpty() || p.pid >= 0) {
            process(p, file, lineNo);
        }
        if (ok) {
            used++;
        }
    }

    private void process(LineParser.Parsed p, String file, long lineNo) {
        String key = p.host + ':' + p.pid + ':' + file;
        if (!processes.containsKey(key)) {
            put(processes, key, new ProcessInfo(p.host, p.pid, p.dev, new SourceRef(file, lineNo)));
        }
    }

    private boolean info(LineParser.Parsed p, String file, long lineNo) {
        String m = p.msg;
        boolean any = false;
        if (p.line.indexOf("NCCL version ") >= 0) {
            any |= version(p, file, lineNo);
        }
        if (m.indexOf(" via ") >= 0 && connection(p, file, lineNo)) {
            return true;
        }
        if (m.startsWith("cudaDriverVersion ")) {
            int v = (int) intAfter(m, "cudaDriverVersion ", -1);
            if (v > 0) {
                putIfAbsent(cuda, "driver " + v / 1000 + "." + (v % 1000) / 10, p, file, lineNo);
                return true;
            }
        }
        if (m.indexOf("Init COMPLETE") >= 0 || m.indexOf("Init START") >= 0) {
            return initLine(p, file, lineNo);
        }
        if (m.startsWith("Bootstrap")) {
            int u = m.indexOf("Using ");
            if (u >= 0) {
                interfaces(bootstrap, m.substring(u + 6), p, file, lineNo);
                return true;
            }
        }
        if (m.startsWith("NET/")) {
            return netLine(p, m, file, lineNo) || any;
        }
        if (m.indexOf("GPU Direct RDMA") >= 0) {
            return gdrLine(p, m, "", file, lineNo);
        }
        if (m.startsWith("Using network ") || m.startsWith("Using internal Network ")
                || m.startsWith("Using internal network ")) {
            String net = m.substring(m.lastIndexOf("etwork ") + 7).trim();
            mention(networks, "network", net, p, file, lineNo);
            return true;
        }
        int plug = m.indexOf("NET plugin ");
        if (plug >= 0) {
            String kind = m.startsWith("Failed") ? "plugin-failed"
                    : m.startsWith("Assigned") ? "network" : "plugin";
            String name = m.substring(plug + 11);
            int to = name.indexOf(" to comm");
            mention(networks, kind, to >= 0 ? name.substring(0, to) : name.trim(), p, file, lineNo);
            return true;
        }
        if (m.startsWith("P2P plugin ") || m.startsWith("Plugin Path")) {
            mention(networks, "plugin", m, p, file, lineNo);
            return true;
        }
        int sbe = m.indexOf(" set by environment to ");
        if (sbe > 0) {
            String name = m.substring(m.lastIndexOf(' ', sbe - 1) + 1, sbe);
            String value = m.substring(sbe + 23).trim();
            if (value.endsWith(".")) {
                value = value.substring(0, value.length() - 1);
            }
            env(name, value, "nccl", file, lineNo);
            return true;
        }
        if (m.startsWith("Connected all rings")) {
            mention(rings, "rings", m, p, file, lineNo);
            return true;
        }
        if (m.indexOf("NVLS") >= 0 || m.indexOf("CollNet") >= 0 || m.indexOf("COLLNET") >= 0) {
            mention(nvls, m.indexOf("NVLS") >= 0 ? "nvls" : "collnet", m, p, file, lineNo);
            return true;
        }
        return any;
    }

    private boolean version(LineParser.Parsed p, String file, long lineNo) {
        String l = p.line;
        int i = l.indexOf("NCCL version ") + 13;
        int e = i;
        while (e < l.length() && !Character.isWhitespace(l.charAt(e))) {
            e++;
        }
        String v = l.substring(i, e);
        if (v.isEmpty() || !Character.isDigit(v.charAt(0))) {
            return false;
        }
        int plus = v.indexOf("+cuda");
        putIfAbsent(nccl, plus >= 0 ? v.substring(0, plus) : v, p, file, lineNo);
        if (plus >= 0) {
            putIfAbsent(cuda, v.substring(plus + 5), p, file, lineNo);
        }
        return true;
    }

    private void putIfAbsent(Map<String, Versioned> map, String v, LineParser.Parsed p, String file, long lineNo) {
        if (!map.containsKey(v)) {
            put(map, v, new Versioned(v, p.host, new SourceRef(file, lineNo)));
        }
    }

    /**
     * "Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0(3)/GDRDMA(PCI)/Shared", "Ring 00 : 43 -> 44 [receive]
     * via NET/Socket/0", "Channel 01 : 2[c7000] -> 0[87000] via P2P/IPC", "... via SHM/direct/direct".
     */
    private boolean connection(LineParser.Parsed p, String file, long lineNo) {
        String m = p.msg;
        int kw;
        if (m.startsWith("Channel ")) {
            kw = 8;
        } else if (m.startsWith("Ring ")) {
            kw = 5;
        } else if (m.startsWith("Tree ")) {
            kw = 5;
        } else {
            return false;
        }
        int colon = m.indexOf(" : ", kw);
        int arrow = m.indexOf("->", colon + 1);
        int via = m.indexOf(" via ", arrow + 1);
        if (colon < 0 || arrow < 0 || via < 0) {
            return false;
        }
        int channel = (int) leadingInt(m, kw, colon);
        int from = (int) leadingInt(m, skipSpaces(m, colon + 3), arrow);
        int toStart = skipSpaces(m, arrow + 2);
        int to = (int) leadingInt(m, toStart, via);
        if (from < 0 || to < 0) {
            return false;
        }
        Direction dir = Direction.UNSPECIFIED;
        int side = m.indexOf('[', toStart);
        if (side >= 0 && side < via) {
            if (m.startsWith("[send]", side) || m.indexOf("[send]", side) >= 0 && m.indexOf("[send]", side) < via) {
                dir = Direction.SEND;
            } else if (m.indexOf("[receive]", side) >= 0 && m.indexOf("[receive]", side) < via) {
                dir = Direction.RECEIVE;
            }
        }
        String rest = m.substring(via + 5).trim();
        Transport t;
        String detail = "";
        String net = "";
        int dev = -1;
        int proxy = -1;
        boolean gdrFlag = false;
        boolean sharedFlag = false;
        if (rest.startsWith("P2P")) {
            t = Transport.P2P;
            detail = rest.length() > 4 ? rest.substring(4) : "";
        } else if (rest.startsWith("SHM")) {
            t = Transport.SHM;
            detail = rest.length() > 4 ? rest.substring(4) : "";
        } else if (rest.startsWith("direct shared memory")) {
            t = Transport.SHM;
            detail = "direct shared memory";
        } else if (rest.startsWith("NET/")) {
            t = Transport.NET;
            String s = rest.substring(4);
            int k = 0;
            int n = s.length();
            while (k < n && !(s.charAt(k) == '/' && k + 1 < n && Character.isDigit(s.charAt(k + 1)))) {
                k++;
            }
            net = s.substring(0, k);
            if (k < n) {
                int d = k + 1;
                int de = d;
                while (de < n && Character.isDigit(s.charAt(de))) {
                    de++;
                }
                dev = (int) Math.min(Integer.MAX_VALUE, LineParser.parseLong(s, d, Math.min(de, d + 9)));
                if (de < n && s.charAt(de) == '(') {
                    int close = s.indexOf(')', de);
                    if (close > de + 1 && LineParser.digits(s, de + 1, close)) {
                        proxy = (int) LineParser.parseLong(s, de + 1, Math.min(close, de + 10));
                    }
                }
                detail = s.substring(de);
            }
            gdrFlag = detail.indexOf("/GDRDMA") >= 0;
            sharedFlag = detail.indexOf("/Shared") >= 0;
        } else if (rest.startsWith("COLLNET")) {
            t = Transport.COLLNET;
            detail = rest;
        } else if (rest.startsWith("NVLS")) {
            t = Transport.NVLS;
            detail = rest;
        } else {
            t = Transport.OTHER;
            detail = rest;
        }
        String key = p.host + '|' + from + '|' + to + '|' + dir + '|' + t + '|' + detail + '|' + net + '|' + dev;
        ConnAgg agg = connections.get(key);
        if (agg == null) {
            if (connections.size() >= maxItems) {
                dropped++;
                return true;
            }
            agg = new ConnAgg(p.host, from, to, dir, t, detail, net, dev, proxy, gdrFlag, sharedFlag,
                    new SourceRef(file, lineNo));
            connections.put(key, agg);
        }
        agg.lines++;
        agg.channel(channel);
        return true;
    }

    private boolean initLine(LineParser.Parsed p, String file, long lineNo) {
        String m = p.msg;
        int rank = (int) intAfter(m, " rank ", -1);
        if (rank < 0 && m.startsWith("rank ")) {
            rank = (int) intAfter(" " + m, " rank ", -1);
        }
        int nranks = (int) intAfter(m, " nranks ", -1);
        int cudaDev = (int) intAfter(m, " cudaDev ", -1);
        String busId = tokenAfter(m, " busId ");
        boolean complete = m.indexOf("Init COMPLETE") >= 0;
        if (rank < 0) {
            return false;
        }
        if (complete) {
            initDone.add(p.host + ':' + p.pid);
        }
        String key = p.host + '|' + p.pid + '|' + rank + '|' + nranks + '|' + cudaDev;
        RankInfo old = ranks.get(key);
        if (old == null || complete && !old.initComplete()) {
            RankInfo r = new RankInfo(rank, nranks, p.host, p.pid, cudaDev, busId, complete,
                    new SourceRef(file, lineNo));
            if (old != null) {
                ranks.put(key, r);
            } else {
                put(ranks, key, r);
            }
        }
        return true;
    }

    private boolean netLine(LineParser.Parsed p, String m, String file, long lineNo) {
        int sep = m.indexOf(':');
        String network = (sep > 4 ? m.substring(4, sep) : m.substring(4)).trim();
        int sp = network.indexOf(' ');
        if (sp >= 0) {
            network = network.substring(0, sp);
        }
        if (m.indexOf("GPU Direct RDMA") >= 0) {
            return gdrLine(p, m, network, file, lineNo);
        }
        if (m.indexOf("No device found") >= 0) {
            mention(noNetDevice, "no-device", network, p, file, lineNo);
            return true;
        }
        if (network.equals("Plugin") || m.startsWith("NET/Plugin")) {
            mention(networks, "plugin", m, p, file, lineNo);
            return true;
        }
        if (network.equals("Socket")) {
            int u = m.indexOf("Using ");
            if (u >= 0) {
                interfaces(socketIfaces, m.substring(u + 6), p, file, lineNo);
                return true;
            }
            return m.indexOf("no socket interface") >= 0;
        }
        // NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.0.1<0>   (2.3: "NET/IB: [0] mlx5_1:1/IB")
        int u = m.indexOf("Using ");
        int start = u >= 0 ? u + 6 : (sep >= 0 && m.indexOf('[', sep) >= 0 ? sep + 1 : -1);
        if (start < 0) {
            return false;
        }
        int semi = m.indexOf(';', start);
        String devs = semi >= 0 ? m.substring(start, semi) : m.substring(start);
        int pendingIndex = -1;
        boolean anyDev = false;
        for (String tok : devs.trim().split("\\s+")) {
            if (tok.isEmpty()) {
                continue;
            }
            int idx = pendingIndex;
            String t = tok;
            if (t.startsWith("[")) {
                int close = t.indexOf(']');
                if (close < 0) {
                    continue;
                }
                String inside = t.substring(1, close);
                t = t.substring(close + 1);
                if (!LineParser.digits(inside, 0, inside.length())) {
                    continue; // [RO], [PCIe]...
                }
                idx = Integer.parseInt(inside);
                if (t.isEmpty()) {
                    pendingIndex = idx;
                    continue;
                }
            }
            pendingIndex = -1;
            int colon = t.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = t.substring(0, colon);
            int slash = t.indexOf('/', colon);
            int port = (int) leadingInt(t, colon + 1, slash < 0 ? t.length() : slash);
            String link = "";
            if (slash >= 0) {
                String after = t.substring(slash + 1);
                int s2 = after.indexOf('/');
                link = s2 >= 0 ? after.substring(0, s2) : after;
            }
            String key = p.host + '|' + network + '|' + idx + '|' + name + '|' + port;
            if (!netDevices.containsKey(key)) {
                put(netDevices, key, new NetDevice(p.host, network, idx, name, port, link,
                        new SourceRef(file, lineNo)));
            }
            anyDev = true;
        }
        if (semi >= 0) {
            int oob = m.indexOf("OOB ", semi);
            if (oob >= 0) {
                interfaces(bootstrap, m.substring(oob + 4), p, file, lineNo, "oob:");
            }
        }
        return anyDev || semi >= 0;
    }

    private boolean gdrLine(LineParser.Parsed p, String m, String network, String file, long lineNo) {
        boolean disabled = m.indexOf("Disabled") >= 0 || m.indexOf("disabled") >= 0;
        boolean enabled = !disabled && (m.indexOf("Enabled") >= 0 || m.indexOf("enabled") >= 0);
        if (!disabled && !enabled) {
            return false;
        }
        int hca = (int) intAfter(m, "HCA ", -1);
        String name = "";
        int q = m.indexOf('\'');
        if (q >= 0) {
            int q2 = m.indexOf('\'', q + 1);
            if (q2 > q) {
                name = m.substring(q + 1, q2);
            }
        }
        String key = p.host + '|' + network + '|' + hca + '|' + name + '|' + enabled + '|' + m.hashCode();
        if (!gdr.containsKey(key)) {
            put(gdr, key, new GdrStatus(p.host, network, hca, name, enabled, m.indexOf("DMABUF") >= 0
                    || m.indexOf("DMA-BUF") >= 0, m, new SourceRef(file, lineNo)));
        }
        return true;
    }

    private void interfaces(Map<String, Interface> into, String list, LineParser.Parsed p, String file,
                            long lineNo) {
        interfaces(into, list, p, file, lineNo, "");
    }

    /** "[0]eth0:10.0.0.1<0> [1]eth1:10.1.0.1<0>", "eth0:10.0.0.1<0>", "interface eth0:10.0.0.1". */
    private void interfaces(Map<String, Interface> into, String list, LineParser.Parsed p, String file,
                            long lineNo, String prefix) {
        for (String tok : list.trim().split("\\s+")) {
            String t = tok;
            if (t.startsWith("[")) {
                int close = t.indexOf(']');
                t = close >= 0 ? t.substring(close + 1) : t;
            }
            int colon = t.indexOf(':');
            if (colon <= 0 || t.equals("interface")) {
                continue;
            }
            String name = prefix + t.substring(0, colon);
            String key = p.host + '|' + name + '|' + p.pid;
            if (!into.containsKey(key)) {
                put(into, key, new Interface(p.host, name, t.substring(colon + 1), new SourceRef(file, lineNo)));
            }
        }
    }

    private boolean warn(LineParser.Parsed p, String file, long lineNo) {
        Warning w = new Warning(p.host, p.pid, p.srcFile, p.srcLine, p.function, p.msg,
                initDone.contains(p.host + ':' + p.pid), new SourceRef(file, lineNo));
        if (warnings.size() < MAX_WARNINGS) {
            warnings.add(w);
            pendingWarn = w;
        } else {
            dropped++;
        }
        return true;
    }

    /** Lines with the word NCCL but no INFO/WARN header: banners, application errors, pasted commands. */
    private boolean bare(LineParser.Parsed p, String file, long lineNo) {
        String l = p.line;
        boolean any = l.indexOf("NCCL version ") >= 0 && version(p, file, lineNo);
        if (l.indexOf("NCCL_") >= 0) {
            any = commandLineEnv(l, file, lineNo);
        }
        if (l.indexOf("NCCL failure") >= 0 || l.indexOf("NCCL error") >= 0 || l.indexOf("ncclSystemError") >= 0
                || l.indexOf("ncclInternalError") >= 0 || l.indexOf("ncclInvalidUsage") >= 0
                || l.indexOf("ncclRemoteError") >= 0) {
            if (warnings.size() < MAX_WARNINGS) {
                warnings.add(new Warning(p.host, p.pid, "", -1, "", l.trim(),
                        initDone.contains(p.host + ':' + p.pid), new SourceRef(file, lineNo)));
            } else {
                dropped++;
            }
            any = true;
        }
        return any;
    }

    /** "NCCL_SOCKET_IFNAME=eth0 all_reduce_perf", "-x NCCL_IB_HCA=mlx5_0", "export NCCL_DEBUG=INFO". */
    private boolean commandLineEnv(String l, String file, long lineNo) {
        boolean any = false;
        int from = 0;
        while (true) {
            int i = l.indexOf("NCCL_", from);
            if (i < 0) {
                return any;
            }
            from = i + 5;
            if (i > 0) {
                char before = l.charAt(i - 1);
                if (Character.isLetterOrDigit(before) || before == '_') {
                    continue;
                }
            }
            int e = i + 5;
            while (e < l.length() && (Character.isUpperCase(l.charAt(e)) || Character.isDigit(l.charAt(e))
                    || l.charAt(e) == '_')) {
                e++;
            }
            if (e >= l.length() || l.charAt(e) != '=' || e == i + 5) {
                continue;
            }
            int ve = e + 1;
            while (ve < l.length() && !Character.isWhitespace(l.charAt(ve))) {
                ve++;
            }
            String value = l.substring(e + 1, ve);
            while (!value.isEmpty() && ".,;".indexOf(value.charAt(value.length() - 1)) >= 0) {
                value = value.substring(0, value.length() - 1); // prose around a pasted setting
            }
            if (value.length() >= 2 && (value.charAt(0) == '"' || value.charAt(0) == '\'')
                    && value.charAt(value.length() - 1) == value.charAt(0)) {
                value = value.substring(1, value.length() - 1);
            }
            env(l.substring(i, e), value, "command line", file, lineNo);
            any = true;
            from = ve;
        }
    }

    private void env(String name, String value, String origin, String file, long lineNo) {
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

    /** Lines that are not NCCL's: WARN continuations, pasted host tools, nccl-tests rows. */
    private void otherLine(String l, String file, long lineNo) {
        Warning pw = pendingWarn;
        pendingWarn = null;
        int n = l.length();
        int s = skipSpaces(l, 0);
        if (s >= n) {
            return;
        }
        char c = l.charAt(s);
        if (pw != null && c != '#' && !Character.isDigit(c) && n - s < MAX_CONTINUATION) {
            // a WARN wrapped over two lines: the second has no header
            int idx = warnings.size() - 1;
            if (idx >= 0 && warnings.get(idx) == pw) {
                warnings.set(idx, new Warning(pw.host(), pw.pid(), pw.ncclFile(), pw.ncclLine(), pw.function(),
                        pw.message() + " " + l.trim(), pw.afterInit(), pw.source()));
            }
            return;
        }
        if (Character.isDigit(c)) {
            measuredRow(l, s, file, lineNo);
            return;
        }
        if (c == 'C' && l.startsWith("CA '", s)) {
            int q = l.indexOf('\'', s + 4);
            if (q > s + 4) {
                mention(hostRdma, "ibstat-ca", l.substring(s + 4, q), null, file, lineNo);
            }
        } else if (l.indexOf("Link layer:") >= 0) {
            mention(hostRdma, "link-layer", l.substring(l.indexOf("Link layer:") + 11).trim(), null, file, lineNo);
        } else if (l.indexOf("hca_id:") >= 0) {
            mention(hostRdma, "ibv-device", l.substring(l.indexOf("hca_id:") + 7).trim(), null, file, lineNo);
        }
    }

    /** An nccl-tests row: "size count type redop [root] time algbw busbw #wrong time algbw busbw #wrong". */
    private void measuredRow(String l, int s, String file, long lineNo) {
        if (measured.size() >= maxItems) {
            return;
        }
        List<String> tok = new ArrayList<>(16);
        for (String t : l.substring(s).split("\\s+")) {
            if (!t.isEmpty() && !t.equals("GB/s")) {
                tok.add(t);
            }
        }
        if (tok.size() < 7 || !LineParser.digits(tok.get(0), 0, tok.get(0).length())
                || !LineParser.digits(tok.get(1), 0, tok.get(1).length())
                || !Character.isLetter(tok.get(2).charAt(0)) || !Character.isLetter(tok.get(3).charAt(0))) {
            return;
        }
        String root = tok.get(4);
        int off = root.matches("-?\\d+") ? 5 : 4;
        double best = -1;
        for (int k : new int[] {off + 2, off + 6}) {
            if (k < tok.size()) {
                best = Math.max(best, number(tok.get(k)));
            }
        }
        if (best >= 0) {
            measured.add(new MeasuredRow(Long.parseLong(tok.get(0)), tok.get(2), best, new SourceRef(file, lineNo)));
        }
    }

    private static double number(String t) {
        int e = 0;
        while (e < t.length() && (Character.isDigit(t.charAt(e)) || t.charAt(e) == '.')) {
            e++;
        }
        try {
            return e == 0 ? -1 : Double.parseDouble(t.substring(0, e));
        } catch (NumberFormatException ex) {
            return -1;
        }
    }

    private void mention(Map<String, Mention> into, String kind, String value, LineParser.Parsed p, String file,
                         long lineNo) {
        String host = p == null ? "" : p.host;
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

    NcclLogEvidence build() {
        List<Connection> conns = new ArrayList<>(connections.size());
        for (ConnAgg a : connections.values()) {
            conns.add(a.freeze());
        }
        long unused = ncclLines - used;
        return new NcclLogEvidence(List.copyOf(sources), List.copyOf(nccl.values()), List.copyOf(cuda.values()),
                List.copyOf(processes.values()), List.copyOf(ranks.values()), List.copyOf(bootstrap.values()),
                List.copyOf(socketIfaces.values()), List.copyOf(netDevices.values()),
                List.copyOf(noNetDevice.values()), List.copyOf(networks.values()), List.copyOf(gdr.values()),
                List.copyOf(conns), List.copyOf(nvls.values()), List.copyOf(warnings), List.copyOf(env.values()),
                List.copyOf(hostRdma.values()), List.copyOf(measured), List.copyOf(rings.values()),
                new NcclLogEvidence.LineCounts(total, ncclLines, used, unused, other, truncated, dropped));
    }

    // small string helpers, no regex

    private static int skipSpaces(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /** The decimal number at the start of s[from, to), or -1. */
    private static long leadingInt(String s, int from, int to) {
        from = skipSpaces(s, from);
        int e = from;
        while (e < to && e < s.length() && Character.isDigit(s.charAt(e)) && e - from < 9) {
            e++;
        }
        return e == from ? -1 : LineParser.parseLong(s, from, e);
    }

    private static long intAfter(String s, String key, long dflt) {
        int i = s.indexOf(key);
        if (i < 0) {
            return dflt;
        }
        long v = leadingInt(s, i + key.length(), s.length());
        return v < 0 ? dflt : v;
    }

    private static String tokenAfter(String s, String key) {
        int i = s.indexOf(key);
        if (i < 0) {
            return "";
        }
        int b = i + key.length();
        int e = b;
        while (e < s.length() && !Character.isWhitespace(s.charAt(e))) {
            e++;
        }
        return s.substring(b, e);
    }
}
