package dev.ncclbench.nccllog;

import java.util.Locale;

/**
 * Whether a source is an NCCL log at all, decided once per source: by its first NCCL line, or after
 * {@link NcclLogReader#SNIFF_BYTES} without one, by whether it is lines of text. Binary data (NUL and other control
 * bytes) or no line break at all is not a log: /dev/zero would otherwise be read forever. Text without NCCL lines
 * still is, so the rules can say what it lacks.
 */
final class Sniff {
    private final long ncclAtStart;
    private final long cutAtStart;
    private long bytes;
    private long control;
    private long lines;
    private long cut;
    private boolean decided;
    private boolean log;

    Sniff(long ncclAtStart, long cutAtStart) {
        this.ncclAtStart = ncclAtStart;
        this.cutAtStart = cutAtStart;
    }

    boolean undecided() {
        return !decided;
    }

    boolean isLog() {
        return log;
    }

    /** Counts one buffer; true once decided. */
    boolean scan(byte[] buf, int n, long linesSoFar, EvidenceBuilder b) {
        if (b.ncclLines() > ncclAtStart) {
            decided = true;
            log = true;
            return true;
        }
        for (int i = 0; i < n; i++) {
            int c = buf[i] & 0xff;
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x0b && c != 0x1b || c == 0x7f) {
                control++;
            }
        }
        bytes += n;
        return bytes >= NcclLogReader.SNIFF_BYTES && decide(linesSoFar, b, true);
    }

    /** Decides at the end of a short source. */
    boolean atEnd(long linesSoFar, EvidenceBuilder b) {
        if (b.ncclLines() > ncclAtStart) {
            decided = true;
            log = true;
            return true;
        }
        return decide(linesSoFar, b, false);
    }

    /** full: a whole sniff window was read, so "no line structure" can be told from one long line. */
    private boolean decide(long linesSoFar, EvidenceBuilder b, boolean full) {
        lines = linesSoFar;
        cut = b.truncated() - cutAtStart;
        // text: few control bytes, and (over a whole window) line breaks at least every 64 KiB on average
        boolean lineBreaks = !full || lines > cut && (lines - cut) * 64 * 1024 >= bytes;
        log = bytes == 0 || control * 100 <= bytes && lineBreaks;
        decided = true;
        return true;
    }

    String why(String name) {
        String what = control * 100 > bytes ? String.format(Locale.ROOT, "binary data (%d%% control bytes)",
                control * 100 / Math.max(1, bytes)) : lines == 0 ? "no line break" : "lines longer than "
                + NcclLogReader.MAX_LINE / 1024 + " KiB";
        long kib = Math.min(bytes, NcclLogReader.SNIFF_BYTES) / 1024;
        return (name.equals("-") ? "stdin" : name) + ": not an NCCL log: no NCCL line and " + what + " in its first "
                + (kib >= 1024 ? kib / 1024 + " MiB" : kib + " KiB");
    }
}
