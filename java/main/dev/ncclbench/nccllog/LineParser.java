package dev.ncclbench.nccllog;

/**
 * Splits one raw line into NCCL's header (host:pid:tid [dev], WARN source location) and its message.
 * Copes with launcher prefixes glued to the host ("[1,0]<stdout>:host:1:2"), timestamps, ANSI codes and
 * lines without the word NCCL (2.2). Never throws; a line it cannot split is {@link Level#NONE}.
 * Hot path: indexOf pre-checks only, no regular expressions.
 */
final class LineParser {

    enum Level { INFO, WARN, TRACE, BARE, NONE }

    /** One parsed line; reused between lines to keep the hot path allocation-free. */
    static final class Parsed {
        Level level;
        String host;
        long pid;
        String dev;
        String srcFile;
        int srcLine;
        String function;
        String msg;
        String line;

        void reset(String l) {
            level = Level.NONE;
            host = "";
            pid = -1;
            dev = "";
            srcFile = "";
            srcLine = -1;
            function = "";
            msg = "";
            line = l;
        }
    }

    private LineParser() {
    }

    static void parse(String raw, Parsed p) {
        try {
            parseUnchecked(raw, p);
        } catch (RuntimeException e) {
            // a bug here must not stop a 1 GB read: the line counts as one we could not use
            p.reset(raw);
            p.level = Level.BARE;
            p.msg = "";
        }
    }

    private static void parseUnchecked(String raw, Parsed p) {
        String line = raw.indexOf('\u001b') >= 0 ? stripAnsi(raw) : raw;
        p.reset(line);
        int headerEnd;
        int msgStart;
        int i = line.indexOf("NCCL ");
        if (i >= 0 && line.startsWith("INFO ", i + 5)) {
            p.level = Level.INFO;
            headerEnd = i;
            msgStart = i + 10;
        } else if (i >= 0 && line.startsWith("WARN ", i + 5)) {
            p.level = Level.WARN;
            headerEnd = i;
            msgStart = i + 10;
        } else {
            int j = line.indexOf("NCCL INFO");
            int k = j < 0 ? line.indexOf("NCCL WARN") : -1;
            if (j >= 0 || k >= 0) {
                // "NCCL INFO" at the end of a line, or a second "NCCL " earlier in it
                p.level = j >= 0 ? Level.INFO : Level.WARN;
                headerEnd = j >= 0 ? j : k;
                msgStart = Math.min(line.length(), headerEnd + 10);
            } else if (line.indexOf("NCCL TRACE") >= 0) {
                p.level = Level.TRACE;
                p.msg = line;
                return;
            } else {
                // 2.2 and older: "host:pid:tid [dev] INFO msg", no NCCL word
                int old = oldStyleMarker(line);
                if (old >= 0) {
                    p.level = line.startsWith("INFO", old) ? Level.INFO : Level.WARN;
                    headerEnd = old;
                    msgStart = Math.min(line.length(), old + 5);
                } else if (i >= 0 || line.indexOf("NCCL") >= 0) {
                    p.level = Level.BARE;
                    p.msg = line.trim();
                    return;
                } else {
                    return;
                }
            }
        }
        p.msg = msgStart >= line.length() ? "" : line.substring(msgStart).trim();
        header(line, headerEnd, p);
    }

    /** Index of "INFO"/"WARN" directly after a "[dev] " header, or -1. */
    private static int oldStyleMarker(String line) {
        int b = line.indexOf("] INFO ");
        if (b < 0) {
            b = line.indexOf("] WARN ");
        }
        if (b < 0) {
            return -1;
        }
        int open = line.lastIndexOf('[', b);
        if (open <= 0 || line.charAt(open - 1) != ' ') {
            return -1;
        }
        return b + 2;
    }

    /** Parses "…host:pid:tid [dev] [file.cc:line [(func)]] " ending at end. */
    private static void header(String line, int end, Parsed p) {
        while (end > 0 && line.charAt(end - 1) == ' ') {
            end--;
        }
        if (end == 0) {
            return;
        }
        // WARN: "file.cc:123 (function)" between the device and the level
        if (line.charAt(end - 1) == ')') {
            int open = line.lastIndexOf('(', end - 1);
            if (open > 0 && line.charAt(open - 1) == ' ') {
                p.function = line.substring(open + 1, end - 1);
                end = open - 1;
            }
        }
        if (end <= 0) {
            return;
        }
        if (line.charAt(end - 1) != ']') {
            int colon = line.lastIndexOf(':', end - 1);
            if (colon > 0 && digits(line, colon + 1, end)) {
                int sp = line.lastIndexOf(' ', colon);
                int from = sp + 1;
                int before = Math.max(sp, 0);
                while (before > 0 && line.charAt(before - 1) == ' ') {
                    before--;
                }
                if (before == 0 || line.charAt(before - 1) != ']') {
                    // a NET plugin logs through NCCL with __PRETTY_FUNCTION__ where NCCL puts its file:
                    // "[0] ncclResult_t nccl_net_ofi_init(ncclDebugLogger_t):194 NCCL WARN NET/OFI ..."
                    int dev = devBracketBefore(line, colon);
                    if (dev >= 0) {
                        from = dev + 2;
                        before = dev + 1;
                    }
                }
                p.srcFile = line.substring(Math.min(from, colon), colon);
                p.srcLine = (int) Math.min(Integer.MAX_VALUE, parseLong(line, colon + 1, end));
                end = before;
            }
        }
        if (end == 0 || line.charAt(end - 1) != ']') {
            return;
        }
        int open = line.lastIndexOf('[', end - 1);
        if (open < 0) {
            return;
        }
        p.dev = line.substring(open + 1, end - 1);
        int tokEnd = open;
        while (tokEnd > 0 && line.charAt(tokEnd - 1) == ' ') {
            tokEnd--;
        }
        // host:pid:tid, read from the right so glued launcher prefixes fall away
        int c2 = line.lastIndexOf(':', tokEnd - 1);
        if (c2 <= 0 || !digits(line, c2 + 1, tokEnd)) {
            return;
        }
        int c1 = line.lastIndexOf(':', c2 - 1);
        if (c1 < 0 || !digits(line, c1 + 1, c2)) {
            return;
        }
        int hs = c1;
        while (hs > 0) {
            char ch = line.charAt(hs - 1);
            if (ch == ' ' || ch == ':' || ch == '>' || ch == ']' || ch == ')' || ch == '\t') {
                break;
            }
            hs--;
        }
        if (hs == c1) {
            // a redacted host such as "<cluster_name>": take the whole token
            while (hs > 0 && line.charAt(hs - 1) != ' ' && line.charAt(hs - 1) != '\t') {
                hs--;
            }
        }
        p.host = unglued(line, hs, c1);
        p.pid = parseLong(line, c1 + 1, c2);
    }

    /**
     * The host name from hs to c1, without a timestamp's tail glued to it: CloudWatch and some launchers paste
     * "2025-05-16T16:39:55.210-07:00ip-10-36-29-253:79:2547 [0] NCCL INFO", where the name seems to start at "00ip".
     * Only when the name follows a ':' and starts with digits (or "digits.digitsZ") then a letter; a name of digits and
     * dashes ("05-06-76-200") stays whole.
     */
    private static String unglued(String line, int hs, int c1) {
        if (hs == 0 || line.charAt(hs - 1) != ':' || hs >= c1 || !Character.isDigit(line.charAt(hs))) {
            return line.substring(hs, c1);
        }
        int k = hs;
        while (k < c1 && (Character.isDigit(line.charAt(k)) || line.charAt(k) == '.')) {
            k++;
        }
        if (k < c1 && line.charAt(k) == 'Z') {
            k++;
        }
        return k < c1 && Character.isLetter(line.charAt(k)) ? line.substring(k, c1) : line.substring(hs, c1);
    }

    /** Index of the ']' of a "host:pid:tid [dev] " header before to, or -1. */
    private static int devBracketBefore(String line, int to) {
        int close = line.lastIndexOf("] ", to);
        while (close > 0) {
            int open = line.lastIndexOf('[', close);
            if (open > 0 && line.charAt(open - 1) == ' ' && digits(line, open + 1, close)) {
                int tid = open - 1;
                while (tid > 0 && line.charAt(tid - 1) == ' ') {
                    tid--;
                }
                int c = line.lastIndexOf(':', tid - 1);
                if (c > 0 && digits(line, c + 1, tid)) {
                    return close;
                }
            }
            close = line.lastIndexOf("] ", close - 1);
        }
        return -1;
    }

    static boolean digits(String s, int from, int to) {
        if (from >= to || to - from > 18) {
            return false;
        }
        for (int k = from; k < to; k++) {
            char c = s.charAt(k);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    static long parseLong(String s, int from, int to) {
        long v = 0;
        for (int k = from; k < to; k++) {
            v = v * 10 + (s.charAt(k) - '0');
        }
        return v;
    }

    /** Removes ANSI escape sequences (CSI "ESC [ ... letter" and two-character escapes). */
    static String stripAnsi(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        int n = s.length();
        for (int k = 0; k < n; k++) {
            char c = s.charAt(k);
            if (c != '\u001b') {
                sb.append(c);
                continue;
            }
            if (k + 1 < n && s.charAt(k + 1) == '[') {
                k += 2;
                while (k < n && (s.charAt(k) < '@' || s.charAt(k) > '~')) {
                    k++;
                }
            } else {
                k++;
            }
        }
        return sb.toString();
    }
}
