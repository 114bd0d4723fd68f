package dev.ncclbench.nccllog;

import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

/**
 * Sends each parsed line to the parser of its family and counts what was used; the {@link Accumulator} keeps
 * (and caps) what they find. Package-private: {@link NcclLogReader} is the public face.
 */
final class EvidenceBuilder {
    private final Accumulator acc;

    /** A WARN that may continue on the next line (NCCL's message wrapped by a terminal or a pipe). */
    private Warning pendingWarn;

    EvidenceBuilder(int maxItems) {
        this.acc = new Accumulator(maxItems);
    }

    void source(String name) {
        acc.source(name);
        pendingWarn = null;
    }

    void truncatedLine() {
        acc.truncated++;
    }

    /**
     * A COLL trace line of the process of the line before (the reader checked the header bytes): what {@link #accept}
     * does with it, counted and skipped.
     */
    void traceLine() {
        acc.total++;
        acc.ncclLines++;
        pendingWarn = null;
    }

    /** Whether {@code p}'s process is counted for {@code file}, so that another line of it changes nothing. */
    boolean processSeen(LineParser.Parsed p, String file) {
        return acc.processSeen(p, file);
    }

    /** One line of input; file and lineNo say where it came from. */
    void accept(LineParser.Parsed p, String file, long lineNo) {
        acc.total++;
        if (TestsLines.comment(p.line)) {
            // nccl-tests' banner and device rows, or a comment: never an NCCL line, never a WARN or a setting
            acc.other++;
            pendingWarn = null;
            if (!TestsLines.parse(p.line, file, lineNo, acc)) {
                WarnLines.testsFailure(p.line, file, lineNo, acc);
            }
            return;
        }
        if ((p.level == LineParser.Level.NONE || p.level == LineParser.Level.BARE) && headerless(p)) {
            p.level = LineParser.Level.INFO; // an INFO line pasted without its "host:pid:tid [dev] NCCL INFO" header
        }
        if (p.level == LineParser.Level.NONE) {
            acc.other++;
            otherLine(p.line, file, lineNo);
            return;
        }
        pendingWarn = null;
        acc.ncclLines++;
        boolean ok;
        try {
            ok = switch (p.level) {
                case INFO -> info(p, file, lineNo);
                case BARE -> bare(p, file, lineNo);
                case WARN -> {
                    pendingWarn = WarnLines.warn(p, file, lineNo, acc);
                    yield true;
                }
                default -> false;
            };
        } catch (RuntimeException e) {
            // a malformed line never stops the reader: it is simply not used
            ok = false;
        }
        if (!p.host.isEmpty() || p.pid >= 0) {
            acc.process(p, file, lineNo);
        }
        if (ok) {
            acc.used++;
        }
    }

    private boolean info(LineParser.Parsed p, String file, long lineNo) {
        String m = p.msg;
        if (collectiveTrace(m)) {
            return false; // most of a big job's log, and nothing about the path: skip the dozen searches below
        }
        boolean any = p.line.indexOf("NCCL version ") >= 0 && InitLines.version(p, file, lineNo, acc);
        if (m.indexOf(" via ") >= 0 && ConnectionLines.parse(p, file, lineNo, acc)) {
            return true;
        }
        if (m.startsWith("Call to connect returned")) {
            WarnLines.warn(p, file, lineNo, acc); // "..., retrying" (misc/socket.cc): kept like a WARN
            return true;
        }
        if (m.indexOf(" -> ") > 0 && WarnLines.errorReturn(p, file, lineNo, acc)) {
            return true;
        }
        if (InitLines.driver(p, file, lineNo, acc) || InitLines.topology(p, file, lineNo, acc)) {
            return true;
        }
        if (m.indexOf("Init COMPLETE") >= 0 || m.indexOf("Init START") >= 0 || InitLines.complete23(m)) {
            return InitLines.init(p, file, lineNo, acc);
        }
        if (m.endsWith("Destroy COMPLETE") && p.pid >= 0) {
            // "comm 0x.. rank 0 nranks 1 cudaDev 0 busId 60 - Destroy COMPLETE": a WARN after every communicator of
            // the process is gone is the process's teardown, not the run's failure
            acc.topology("destroyed", p.pid + " " + Text.tokenAfter(m, "comm "), p.host, file, lineNo);
            return true;
        }
        if (InterfaceLists.bootstrap(p, file, lineNo, acc)) {
            return true;
        }
        if (m.startsWith("NET/")) {
            return NetLines.parse(p, file, lineNo, acc) || any;
        }
        if (m.indexOf("GPU Direct RDMA") >= 0) {
            return NetLines.gdr(p, m, "", file, lineNo, acc);
        }
        if (m.indexOf(" Bytes -> ") > 0 && TuningLines.parse(p, file, lineNo, acc)) {
            return true;
        }
        return NetworkLines.parse(p, file, lineNo, acc) || EnvLines.setByEnvironment(p, file, lineNo, acc)
                || CollectiveLines.parse(p, file, lineNo, acc) || any;
    }

    /** How NCCL's own INFO messages start: a pasted log that lost its headers still says what NCCL decided. */
    private static final String[] MESSAGES = {"Channel ", "Ring ", "Using network ", "NET/IB", "NET/Socket", "NET/Plugin",
        "Bootstrap : Using", "Bootstrap: Using", "Connected all rings", "Connected NVLS", "NVLS multicast", "NVLS comm",
        "MNNVL busId", "ncclCommInitRank", "comm 0x", "P2P plugin", "Plugin Path", "Assigned NET plugin",
        "cudaDriverVersion "};

    /**
     * Whether a line without NCCL's header is one of NCCL's INFO messages all the same (a paste whose headers were cut,
     * a logger that re-printed the message alone): "Using network IB", "Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM",
     * "NCCL_SOCKET_IFNAME set by environment to eth0". Then it is read as one, without a host.
     */
    private static boolean headerless(LineParser.Parsed p) {
        String l = p.line.trim();
        if (l.startsWith("NCCL_") && (l.indexOf(" set by environment to ") > 0 || l.indexOf(" set to ") > 0)) {
            p.msg = l;
            return true;
        }
        for (String m : MESSAGES) {
            if (l.startsWith(m)) {
                p.msg = l;
                return true;
            }
        }
        return false;
    }

    /**
     * "AllReduce: opCount 3f sendbuff 0x.. recvbuff 0x.. count 2097152 datatype 7 op 0 root 0 comm 0x.. [nranks=16]
     * stream 0x..": NCCL_DEBUG_SUBSYS=COLL prints one per call on every rank (enqueue.cc).
     */
    static boolean collectiveTrace(String m) {
        int colon = m.indexOf(':');
        return colon > 3 && colon < 24 && m.startsWith(" opCount ", colon + 1) && m.indexOf(' ') > colon;
    }

    /** Lines with the word NCCL but no INFO/WARN header: banners, application errors, pasted commands. */
    private boolean bare(LineParser.Parsed p, String file, long lineNo) {
        String l = p.line;
        boolean any = l.indexOf("NCCL version ") >= 0 && InitLines.version(p, file, lineNo, acc);
        if (l.indexOf("NCCL_") >= 0) {
            any = EnvLines.commandLine(l, file, lineNo, acc);
        }
        return WarnLines.errorLine(p, file, lineNo, acc) || any;
    }

    /** Lines that are not NCCL's: WARN continuations, nccl-tests rows, pasted host tools. */
    private void otherLine(String l, String file, long lineNo) {
        Warning pw = pendingWarn;
        pendingWarn = null;
        int s = Text.skipSpaces(l, 0);
        if (s >= l.length() || WarnLines.continuation(pw, l, s, acc)) {
            return;
        }
        if (l.indexOf("considered dead (unreachable via the RAS network)") >= 0) {
            // NCCL's RAS client (ncclras): "DEAD / N job process(es) considered dead ..." then "Process P on node H
            // managing GPU G" lines, kept with it as its continuation: which peer died
            pendingWarn = WarnLines.rasDead(l, file, lineNo, acc);
        } else if (Character.isDigit(l.charAt(s))) {
            TestsRows.parse(l, s, file, lineNo, acc);
        } else if (l.indexOf("# ") >= 0 && TestsLines.parse(l, file, lineNo, acc)) {
            return; // "[1,0]<stdout>:#  Rank  0 Group  0 Pid 12 on node-a device  0 [...]": behind a launcher prefix
        } else if (!HostToolLines.parse(l, s, file, lineNo, acc) && (l.indexOf("nccl") >= 0 || l.indexOf("Test ") >= 0
                || l.indexOf("Out of bounds") >= 0)) {
            WarnLines.errorLine(l, "", -1, file, lineNo, acc);
        }
    }

    /** NCCL lines read so far (the reader asks whether a source is an NCCL log at all). */
    long ncclLines() {
        return acc.ncclLines;
    }

    /** Lines cut at the line limit so far. */
    long truncated() {
        return acc.truncated;
    }

    /** Adds what another builder read after what this one read (files read in parallel, merged in order). */
    void merge(EvidenceBuilder other) {
        acc.merge(other.acc);
        pendingWarn = null;
    }

    NcclLogEvidence build() {
        return acc.build();
    }
}
