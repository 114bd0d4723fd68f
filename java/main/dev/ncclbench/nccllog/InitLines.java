package dev.ncclbench.nccllog;

import dev.ncclbench.nccllog.NcclLogEvidence.RankInfo;

/**
 * What a process says about itself at init: the banner "NCCL version 2.18.5+cuda12.2" (bare or INFO),
 * "cudaDriverVersion 12020", and "comm 0x... rank 0 nranks 8 cudaDev 0 nvmlDev 0 busId 18000 commId 0x... - Init
 * START" / "- Init COMPLETE" (older: "rank 0 nranks 8 cudaDev 0 busId 18000 - Init COMPLETE").
 */
final class InitLines {
    private InitLines() {
    }

    /** The NCCL (and CUDA) version of a banner anywhere in the line. */
    static boolean version(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String l = p.line;
        int at = l.indexOf("NCCL version ");
        if (at < 0) {
            return false;
        }
        int i = at + 13;
        int e = i;
        while (e < l.length() && !Character.isWhitespace(l.charAt(e))) {
            e++;
        }
        while (e > i && !Character.isLetterOrDigit(l.charAt(e - 1))) {
            e--; // "2.14.3)." in prose around a pasted version
        }
        String v = l.substring(i, e);
        if (v.isEmpty() || !Character.isDigit(v.charAt(0))) {
            return false;
        }
        int plus = v.indexOf("+cuda");
        acc.ncclVersion(plus >= 0 ? v.substring(0, plus) : v, p.host, file, lineNo);
        if (plus >= 0) {
            acc.cudaVersion(v.substring(plus + 5), p.host, file, lineNo);
        }
        return true;
    }

    /** "cudaDriverVersion 12020": the driver's CUDA version, 12.2. */
    static boolean driver(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        if (!p.msg.startsWith("cudaDriverVersion ")) {
            return false;
        }
        int v = (int) Text.intAfter(p.msg, "cudaDriverVersion ", -1);
        if (v <= 0) {
            return false;
        }
        acc.cudaVersion("driver " + v / 1000 + "." + (v % 1000) / 10, p.host, file, lineNo);
        return true;
    }

    /** 2.3's end of init: "comm %p rank %d nranks %d - COMPLETE" (init.cu), no "Init" yet. */
    static boolean complete23(String m) {
        return m.startsWith("comm ") && m.endsWith(" - COMPLETE") && m.indexOf(" nranks ") > 0;
    }

    /** An Init START or Init COMPLETE line (2.3's "- COMPLETE" too). */
    static boolean init(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String m = p.msg;
        boolean complete = m.indexOf("Init COMPLETE") >= 0 || complete23(m);
        if (!complete && m.indexOf("Init START") < 0) {
            return false;
        }
        int rank = (int) Text.intAfter(m, " rank ", -1);
        if (rank < 0 && m.startsWith("rank ")) {
            rank = (int) Text.intAfter(" " + m, " rank ", -1);
        }
        if (rank < 0) {
            return false;
        }
        int nranks = (int) Text.intAfter(m, " nranks ", -1);
        int cudaDev = (int) Text.intAfter(m, " cudaDev ", -1);
        String busId = Text.tokenAfter(m, " busId ");
        // the communicator's id ("commId 0x51c2", printed on both init lines since Init START exists): which ranks
        // belong to one job when several jobs' logs are read together
        String commId = Text.tokenAfter(m, " commId ");
        acc.rank(new RankInfo(rank, nranks, p.host, p.pid, cudaDev, busId, commId, complete,
                new SourceRef(file, lineNo)));
        if (complete) {
            acc.progress(p.host, p.pid, p.dev, file, lineNo, true);
        }
        return true;
    }

    /**
     * What names the size of the job besides the init lines: "comm 0x.. rank 0 nRanks 16 nNodes 2 localRanks 8
     * localRank 0 MNNVL 0" (2.19+), and the ring orders "Channel 00/02 :    0   1   2   3" that list every rank.
     */
    static boolean topology(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String m = p.msg;
        if (m.startsWith("MNNVL busId ")) {
            // "MNNVL busId 0x%lx fabric UUID %lx.%lx cliqueId 0x%x state %d healthMask 0x%x" (init.cc, 2.27+): the GPU's
            // NVLink fabric registration and NVML's health mask for it
            acc.topology("mnnvl", m.substring(6), p.host, file, lineNo);
            return true;
        }
        if (m.startsWith("Bootstrap timings ") || m.startsWith("Init timings")) {
            return true; // "Bootstrap timings total %f (create %f, send %f, recv %f, ring %f, delay %f)" (2.23+)
        }
        int nr = m.indexOf(" nRanks ");
        if (nr >= 0) {
            long ranks = Text.intAfter(m, " nRanks ", -1);
            long nodes = Text.intAfter(m, " nNodes ", -1);
            if (ranks > 0) {
                acc.topology("ranks", String.valueOf(ranks), p.host, file, lineNo);
            }
            if (nodes > 0) {
                acc.topology("nodes", String.valueOf(nodes), p.host, file, lineNo);
            }
            if (Text.intAfter(m, " MNNVL ", 0) > 0) {
                acc.topology("mnnvl-on", "1", p.host, file, lineNo); // NVLink reaches across nodes (2.20+)
            }
            return ranks > 0 || nodes > 0;
        }
        if (m.startsWith("rank ") || m.indexOf("comm ") >= 0 && m.indexOf(" rank ") > 0 && m.indexOf(" - ") < 0) {
            // 2.2-2.3: "rank 3 nranks 4", "comm 0x7f2a20413010 rank 2 nranks 4" (no Init START yet); an init line cut
            // before its "- Init START" still names the job's size
            long ranks = Text.intAfter(m, " nranks ", -1);
            if (ranks > 0) {
                acc.topology("ranks", String.valueOf(ranks), p.host, file, lineNo);
                return true;
            }
        }
        if (!m.startsWith("Channel ") && !m.startsWith("Ring ")) {
            return false;
        }
        int colon = m.indexOf(" : ");
        if (colon < 0 || m.indexOf("->") >= 0) {
            return false;
        }
        int count = 0;
        for (int k = colon + 3; k < m.length(); ) {
            k = Text.skipSpaces(m, k);
            int e = k;
            while (e < m.length() && Character.isDigit(m.charAt(e))) {
                e++;
            }
            if (e == k) {
                if (k < m.length()) {
                    return false; // not a list of ranks
                }
                break;
            }
            count++;
            k = e;
        }
        if (count == 0) {
            return false;
        }
        acc.topology("ring-ranks", String.valueOf(count), p.host, file, lineNo);
        return true;
    }
}
