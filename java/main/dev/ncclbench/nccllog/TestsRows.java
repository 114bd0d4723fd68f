package dev.ncclbench.nccllog;

import dev.ncclbench.nccllog.NcclLogEvidence.MeasuredRow;

import java.util.ArrayList;
import java.util.List;

/** nccl-tests result rows: "size count type redop [root] time algbw busbw #wrong time algbw busbw #wrong". */
final class TestsRows {
    private TestsRows() {
    }

    /** Reads a row starting at s (its first digit); keeps the best busbw of its two placements. */
    static boolean parse(String l, int s, String file, long lineNo, Accumulator acc) {
        if (acc.measuredFull()) {
            return false;
        }
        List<String> tok = new ArrayList<>(16);
        int n = l.length();
        for (int i = s; i < n; ) { // split on \s+ without a regular expression: this runs for every row
            while (i < n && space(l.charAt(i))) {
                i++;
            }
            int e = i;
            while (e < n && !space(l.charAt(e))) {
                e++;
            }
            if (e > i && !(e - i == 4 && l.startsWith("GB/s", i))) {
                tok.add(l.substring(i, e));
            }
            i = e;
        }
        if (tok.size() < 7 || !LineParser.digits(tok.get(0), 0, tok.get(0).length())
                || !LineParser.digits(tok.get(1), 0, tok.get(1).length())
                || !Character.isLetter(tok.get(2).charAt(0)) || !Character.isLetter(tok.get(3).charAt(0))) {
            return false;
        }
        int off = isInt(tok.get(4)) ? 5 : 4;
        double best = -1;
        for (int k : new int[] {off + 2, off + 6}) {
            if (k < tok.size()) {
                best = Math.max(best, number(tok.get(k)));
            }
        }
        if (best < 0) {
            return false;
        }
        acc.measured(new MeasuredRow(Long.parseLong(tok.get(0)), tok.get(2), best, new SourceRef(file, lineNo)));
        return true;
    }

    /** What \s matches in a regular expression. */
    private static boolean space(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
    }

    private static boolean isInt(String t) {
        int from = t.startsWith("-") ? 1 : 0;
        return LineParser.digits(t, from, t.length());
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
}
