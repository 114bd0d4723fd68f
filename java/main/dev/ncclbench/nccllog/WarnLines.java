package dev.ncclbench.nccllog;

import dev.ncclbench.nccllog.NcclLogEvidence.Warning;

/**
 * WARN lines ("host:pid:tid [dev] bootstrap.cc:126 (bootstrapNetInit) NCCL WARN msg"), the error lines the
 * application prints about NCCL ("NCCL error in: ...", "ncclSystemError"), and a WARN's continuation when a terminal
 * or pipe wrapped it onto a line without a header.
 */
final class WarnLines {
    /** A continuation is shorter than this; a longer header-less line is something else. */
    static final int MAX_CONTINUATION = 300;

    private WarnLines() {
    }

    /** Stores the WARN; returns it (to watch for a continuation), or null when the cap was reached. */
    static Warning warn(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        Warning w = new Warning(p.host, p.pid, p.srcFile, p.srcLine, p.function, p.msg,
                acc.initDone(p.host, p.pid), new SourceRef(file, lineNo));
        return acc.warning(w) ? w : null;
    }

    /** A bare line (no INFO/WARN header) that reports an NCCL failure. */
    static boolean errorLine(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String l = p.line;
        if (l.indexOf("NCCL failure") < 0 && l.indexOf("NCCL error") < 0 && l.indexOf("ncclSystemError") < 0
                && l.indexOf("ncclInternalError") < 0 && l.indexOf("ncclInvalidUsage") < 0
                && l.indexOf("ncclRemoteError") < 0) {
            return false;
        }
        acc.warning(new Warning(p.host, p.pid, "", -1, "", l.trim(), acc.initDone(p.host, p.pid),
                new SourceRef(file, lineNo)));
        return true;
    }

    /** Whether a header-less line continues the WARN before it (then it is appended to it). */
    static boolean continuation(Warning pending, String l, int start, Accumulator acc) {
        if (pending == null) {
            return false;
        }
        char c = l.charAt(start);
        if (c == '#' || Character.isDigit(c) || l.length() - start >= MAX_CONTINUATION) {
            return false;
        }
        acc.continueWarning(pending, l.trim());
        return true;
    }
}
