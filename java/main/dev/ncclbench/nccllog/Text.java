package dev.ncclbench.nccllog;

/** Small string helpers for the line parsers: no regular expressions on the hot path. */
final class Text {
    private Text() {
    }

    static int skipSpaces(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /** The decimal number at the start of s[from, to), after spaces, or -1. */
    static long leadingInt(String s, int from, int to) {
        from = skipSpaces(s, from);
        int e = from;
        while (e < to && e < s.length() && Character.isDigit(s.charAt(e)) && e - from < 9) {
            e++;
        }
        return e == from ? -1 : LineParser.parseLong(s, from, e);
    }

    /** The number after the first occurrence of key, or dflt. */
    static long intAfter(String s, String key, long dflt) {
        int i = s.indexOf(key);
        if (i < 0) {
            return dflt;
        }
        long v = leadingInt(s, i + key.length(), s.length());
        return v < 0 ? dflt : v;
    }

    /** The whitespace-free token after the first occurrence of key, or "". */
    static String tokenAfter(String s, String key) {
        int i = s.indexOf(key);
        if (i < 0) {
            return "";
        }
        int b = i + key.length();
        int e = b;
        while (e < s.length() && !Character.isWhitespace(s.charAt(e))) {
            e++;
        }
        return s.substring(b, e);
    }
}
