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
        Warning w = new Warning(p.host, p.pid, p.dev, p.srcFile, p.srcLine, p.function, p.msg,
                acc.initDone(p.host, p.pid), new SourceRef(file, lineNo));
        return acc.warning(w) ? w : null;
    }

    /** The function NCCL's error-return trace lines are given: "misc/socket.cc:564 -> 2" (include/checks.h). */
    static final String ERROR_RETURN = "error return";

    /** A bare line (no INFO/WARN header) that reports an NCCL failure. */
    static boolean errorLine(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        return errorLine(p.line, p.host, p.pid, file, lineNo, acc);
    }

    /**
     * A line about a failure that the application or nccl-tests printed: "NCCL error in: ...", "ncclSystemError",
     * "Test NCCL failure common.cu:..", "Test CUDA failure ...", nccl-tests' "Out of bounds values : 3 FAILED",
     * PyTorch's "Watchdog caught collective operation timeout".
     */
    static boolean errorLine(String l, String host, long pid, String file, long lineNo, Accumulator acc) {
        if (l.indexOf("NCCL failure") < 0 && l.indexOf("NCCL error") < 0 && l.indexOf("ncclSystemError") < 0
                && l.indexOf("ncclInternalError") < 0 && l.indexOf("ncclInvalidUsage") < 0
                && l.indexOf("ncclRemoteError") < 0 && l.indexOf("ncclUnhandledCudaError") < 0
                && l.indexOf("ncclInvalidArgument") < 0 && l.indexOf("Test CUDA failure") < 0
                && l.indexOf("Watchdog caught collective operation timeout") < 0
                && !(l.indexOf("Out of bounds values") >= 0 && l.indexOf("FAILED") >= 0)) {
            return false;
        }
        acc.warning(new Warning(host, pid, "", "", -1, "", l.trim(), acc.initDone(host, pid),
                new SourceRef(file, lineNo)));
        return true;
    }

    /**
     * NCCL's RAS client report (2.24+, client_support.cc): "  2 job processes are considered dead (unreachable via the
     * RAS network)", followed by "  Process %d on node %s managing GPU %s" lines that {@link #continuation} appends.
     */
    static Warning rasDead(String l, String file, long lineNo, Accumulator acc) {
        Warning w = new Warning("", -1, "", "", -1, "RAS", "NCCL RAS: " + l.trim(), false, new SourceRef(file, lineNo));
        return acc.warning(w) ? w : null;
    }

    /** nccl-tests' "# Out of bounds values : 3 FAILED" footer, the one "#" line that reports a failure. */
    static void testsFailure(String l, String file, long lineNo, Accumulator acc) {
        if (l.indexOf("Out of bounds values") >= 0 && l.indexOf("FAILED") >= 0) {
            errorLine(l, "", -1, file, lineNo, acc);
        }
    }

    /**
     * NCCL's trace of an error return, "misc/socket.cc:564 -> 2", "init.cc:1324 -> 2 [Async thread]",
     * "include/socket.h:409 -> 2 (Connection refused)": kept as a warning whose function is {@link #ERROR_RETURN}.
     */
    static boolean errorReturn(LineParser.Parsed p, String file, long lineNo, Accumulator acc) {
        String m = p.msg;
        int arrow = m.indexOf(" -> ");
        if (arrow <= 0 || m.indexOf(' ') < arrow) {
            return false;
        }
        int colon = m.lastIndexOf(':', arrow);
        if (colon <= 0 || !LineParser.digits(m, colon + 1, arrow) || m.indexOf('.') > colon) {
            return false;
        }
        int code = (int) Text.leadingInt(m, arrow + 4, m.length());
        if (code <= 0) {
            return false;
        }
        acc.warning(new Warning(p.host, p.pid, p.dev, m.substring(0, colon),
                (int) LineParser.parseLong(m, colon + 1, Math.min(arrow, colon + 10)), ERROR_RETURN, m,
                acc.initDone(p.host, p.pid), new SourceRef(file, lineNo)));
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
