package dev.ncclbench.output;

/** Escaping for text put into HTML (the reports) and into attribute values. */
public final class Html {
    private Html() {
    }

    /**
     * The five characters HTML gives meaning to, as entities; other control characters than tab, newline and
     * carriage return become spaces (HTML does not allow them). Null is the empty string.
     */
    public static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c < 0x20 && c != '\n' && c != '\t' && c != '\r' ? ' ' : c);
            }
        }
        return b.toString();
    }
}
