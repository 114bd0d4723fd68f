package dev.ncclbench.nccllog;

import dev.ncclbench.nccllog.NcclLogEvidence.Connection;

/**
 * Connection lines of every era, aggregated over channels: "Channel 00/0 : 0[0] -> 8[0] [send] via
 * NET/IB/0(3)/GDRDMA(PCI)/Shared", "Ring 00 : 43 -> 44 [receive] via NET/Socket/0" (2.4), "Channel 01 : 2[c7000] ->
 * 0[87000] via P2P/IPC" (2.5-2.11), "... via SHM/direct/direct", "... via direct shared memory" (<= 2.12).
 */
final class ConnectionLines {
    private ConnectionLines() {
    }

    /** One (host, from, to, side, transport, detail, net, dev, connection index) seen on some channels. */
    static final class Aggregate {
        final String host;
        final int from;
        final int to;
        final Direction dir;
        final Transport transport;
        final String detail;
        final String net;
        final int dev;
        final int connIndex;
        final int proxy;
        final boolean gdr;
        final boolean shared;
        final SourceRef first;
        long lines;
        long chanLo;
        long chanHi;
        int chanOther;

        Aggregate(String host, int from, int to, Direction dir, Transport transport, String detail, String net,
                  int dev, int connIndex, int proxy, boolean gdr, boolean shared, SourceRef first) {
            this.host = host;
            this.from = from;
            this.to = to;
            this.dir = dir;
            this.transport = transport;
            this.detail = detail;
            this.net = net;
            this.dev = dev;
            this.connIndex = connIndex;
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

        /** The same connection read in another file: its lines and channels count here too. */
        void add(Aggregate o) {
            lines += o.lines;
            chanLo |= o.chanLo;
            chanHi |= o.chanHi;
            chanOther |= o.chanOther;
        }

        Connection freeze() {
            int ch = Long.bitCount(chanLo) + Long.bitCount(chanHi) + chanOther;
            return new Connection(host, from, to, dir, transport, detail, net, dev, connIndex, proxy, gdr, shared, ch,
                    lines, first);
        }
    }

    /** Whether the INFO message is a connection line; if so it is counted into acc. */
    static boolean parse(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String m = p.msg;
        int kw;
        if (m.startsWith("Channel ")) {
            kw = 8;
        } else if (m.startsWith("Ring ") || m.startsWith("Tree ")) {
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
        int channel = (int) Text.leadingInt(m, kw, colon);
        // "Channel 02/1 : ..." (2.12+): connection index 1 is send/recv and alltoall (ncclTransportP2pSetup(comm,
        // NULL, 1)), 0 the rings and trees; older lines print none
        int slashAt = m.indexOf('/', kw);
        int connIndex = slashAt > kw && slashAt < colon ? (int) Text.leadingInt(m, slashAt + 1, colon) : -1;
        int from = (int) Text.leadingInt(m, Text.skipSpaces(m, colon + 3), arrow);
        int toStart = Text.skipSpaces(m, arrow + 2);
        int to = (int) Text.leadingInt(m, toStart, via);
        if (from < 0 || to < 0) {
            return false;
        }
        Direction dir = Direction.UNSPECIFIED;
        int side = m.indexOf('[', toStart);
        if (side >= 0 && side < via) {
            int send = m.indexOf("[send]", side);
            int recv = m.indexOf("[receive]", side);
            if (send >= 0 && send < via) {
                dir = Direction.SEND;
            } else if (recv >= 0 && recv < via) {
                dir = Direction.RECEIVE;
            }
        }
        String rest = m.substring(via + 5).trim();
        Transport t;
        String detail = "";
        String net = "";
        int dev = -1;
        int proxy = -1;
        if (rest.startsWith("P2P")) {
            t = Transport.P2P;
            detail = rest.length() > 4 ? rest.substring(4) : "";
        } else if (rest.startsWith("SHM")) {
            t = Transport.SHM;
            detail = rest.length() > 4 ? rest.substring(4) : "";
        } else if (rest.startsWith("direct shared memory")) {
            t = Transport.SHM;
            detail = "direct shared memory";
        } else if (rest.startsWith("NET/") || dir != Direction.UNSPECIFIED && !rest.startsWith("COLLNET")
                && !rest.startsWith("NVLS") && !rest.isEmpty()) {
            // only the network prints [send]/[receive]; a plugin may print its own name without "NET/"
            t = Transport.NET;
            String s = rest.startsWith("NET/") ? rest.substring(4) : rest;
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
        boolean gdr = t == Transport.NET && detail.indexOf("/GDRDMA") >= 0;
        boolean shared = t == Transport.NET && detail.indexOf("/Shared") >= 0;
        if (t == Transport.NET) {
            acc.hostNet(p.host, net, gdr, file, lineNo);
        }
        acc.progress(p.host, p.pid, p.dev, file, lineNo, false);
        String key = p.host + '|' + from + '|' + to + '|' + dir + '|' + t + '|' + detail + '|' + net + '|' + dev + '|'
                + connIndex;
        Aggregate agg = acc.connection(key);
        if (agg == null) {
            agg = new Aggregate(p.host, from, to, dir, t, detail, net, dev, connIndex, proxy, gdr, shared,
                    new SourceRef(file, lineNo));
            if (!acc.newConnection(key, agg)) {
                return true;
            }
        }
        agg.lines++;
        agg.channel(channel);
        return true;
    }
}
