package dev.ncclbench.nccllog;

import dev.ncclbench.NcclVersionCode;

/**
 * nccl-tests' own "#" lines, wherever a launcher prefix put them: its banner ("# nccl-tests version 2.20.0 (b4d5bee)
 * nccl-headers=23102 nccl-library=23102", 2.20; "# nccl-tests version 2.19.6 nccl-headers=22807 nccl-library=22807"
 * before), whose library code is the NCCL the test ran; and its device rows ("#  Rank %2d Group %2d Pid %6d on %10s
 * device %2d [%04x:%02x:%02x] %s", "#   Rank %2d Pid %6d on %10s device %2d [0x%02x] %s" before 2.13), which say on
 * which host each rank ran. Any other line that starts with "#" is a comment (a fixture's, a script's, a commented-out
 * export): nothing in it is NCCL's output.
 */
final class TestsLines {
    private TestsLines() {
    }

    /** Whether the first character that is not a space is '#'. */
    static boolean comment(String l) {
        int s = Text.skipSpaces(l, 0);
        return s < l.length() && l.charAt(s) == '#';
    }

    /** Reads a "#" line of nccl-tests; false for a comment (or a header line with nothing to keep). */
    static boolean parse(String l, String file, long lineNo, Accumulator acc) {
        int v = l.indexOf("# nccl-tests version ");
        if (v >= 0) {
            acc.topology("nccl-tests", Text.tokenAfter(l, "# nccl-tests version "), "", file, lineNo);
            long code = Text.intAfter(l, "nccl-library=", -1);
            if (code > 0) {
                acc.ncclVersion(NcclVersionCode.text(code), "", file, lineNo);
            }
            return true;
        }
        int r = l.indexOf(" Rank ");
        int on = l.indexOf(" on ", Math.max(r, 0));
        if (r < 0 || on < 0 || l.indexOf(" device ", on) < 0 || l.indexOf("Pid ", r) < 0
                || l.lastIndexOf('#', r) < 0) {
            return false;
        }
        long rank = Text.leadingInt(l, r + 6, l.length());
        String host = Text.tokenAfter(l.substring(on), " on ");
        if (rank < 0 || host.isEmpty()) {
            return false;
        }
        acc.topology("tests-rank", rank + " " + host, "", file, lineNo);
        return true;
    }
}
