package dev.ncclbench.spec;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Byte sizes as nccl-tests parses and steps them. */
public final class Sizes {
    /** nccl-tests' sweeps stop growing here even with -f; a guard against a runaway additive step too. */
    private static final int MAX_STEPS = 1_000_000;

    private Sizes() {
    }

    /**
     * Parses "8", "1K", "1.5G", "64m": K, M, G are binary (2^10, 2^20, 2^30), fractions allowed,
     * the result truncated to whole bytes as nccl-tests' parseInt does. A trailing "B" is accepted.
     *
     * @throws IllegalArgumentException with a sentence naming the bad value
     */
    public static long parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty size");
        }
        String s = text.trim().toUpperCase(Locale.ROOT);
        if (s.endsWith("B") && s.length() > 1 && !Character.isDigit(s.charAt(s.length() - 2))) {
            s = s.substring(0, s.length() - 1);
        }
        long unit = 1;
        char last = s.charAt(s.length() - 1);
        if (last == 'K' || last == 'M' || last == 'G' || last == 'T') {
            unit = last == 'K' ? 1L << 10 : last == 'M' ? 1L << 20 : last == 'G' ? 1L << 30 : 1L << 40;
            s = s.substring(0, s.length() - 1);
        }
        if (!s.matches("[0-9]+(\\.[0-9]*)?|\\.[0-9]+")) {
            throw new IllegalArgumentException("bad size '" + text.trim()
                    + "': expected bytes with an optional K, M or G suffix (binary), e.g. 8, 64K, 1.5G");
        }
        BigDecimal bytes = new BigDecimal(s).multiply(BigDecimal.valueOf(unit));
        if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 2)) > 0) {
            throw new IllegalArgumentException("size '" + text.trim() + "' is too large");
        }
        return bytes.longValue();
    }

    /** The sizes from min to max inclusive: multiply by factor when factor > 1, else add step. */
    public static List<Long> steps(long min, long max, long factor, long step) {
        List<Long> out = new ArrayList<>();
        long size = min;
        while (size <= max && out.size() < MAX_STEPS) {
            out.add(size);
            long next = factor > 1 ? size * factor : size + step;
            if (next <= size) {
                break;
            }
            size = next;
        }
        return out;
    }

    /** A size as a flag takes it back: "8G", "16M", "64K", else bytes ("8B"). */
    public static String flag(long bytes) {
        for (int shift = 30; shift >= 10; shift -= 10) {
            if (bytes != 0 && bytes % (1L << shift) == 0) {
                return (bytes >> shift) + "GMK".substring(3 - shift / 10, 4 - shift / 10);
            }
        }
        return bytes + "B";
    }

    /** "8 B", "64 KiB", "1.5 GiB" for human lines (not the table). */
    public static String human(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return (v == Math.rint(v) ? String.format(Locale.ROOT, "%d", (long) v) : String.format(Locale.ROOT, "%.1f", v))
                + " " + units[u];
    }
}
