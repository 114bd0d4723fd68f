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

    /** An Init START or Init COMPLETE line. */
    static boolean init(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String m = p.msg;
        boolean complete = m.indexOf("Init COMPLETE") >= 0;
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
        acc.rank(new RankInfo(rank, nranks, p.host, p.pid, cudaDev, busId, complete, new SourceRef(file, lineNo)));
        return true;
    }

    /**
     * What names the size of the job besides the init lines: "comm 0x.. rank 0 nRanks 16 nNodes 2 localRanks 8
     * localRank 0 MNNVL 0" (2.19+), and the ring orders "Channel 00/02 :    0   1   2   3" that list every rank.
     */
    static boolean topology(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String m = p.msg;
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
            return ranks > 0 || nodes > 0;
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
