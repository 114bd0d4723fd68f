package dev.ncclbench.gate;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.spec.Sizes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How strict the gate is.
 *
 * @param tolerance    the smallest change that counts, as a fraction (0.05: 5%), of latency below
 *                     {@code latencyBelow} and of busbw from there on
 * @param overrides    per-size tolerances, the last matching one wins
 * @param latencyBelow sizes under this many bytes are judged on latency, the others on busbw
 * @param alpha        the rank test's significance level (one-sided)
 */
public record GateOptions(double tolerance, List<Override> overrides, long latencyBelow, double alpha) {
    public static final double DEFAULT_TOLERANCE = 0.05;
    public static final long DEFAULT_LATENCY_BELOW = 1L << 20;
    public static final double DEFAULT_ALPHA = 0.01;

    public GateOptions {
        overrides = List.copyOf(overrides);
    }

    public static GateOptions defaults() {
        return new GateOptions(DEFAULT_TOLERANCE, List.of(), DEFAULT_LATENCY_BELOW, DEFAULT_ALPHA);
    }

    /** A tolerance for sizes from minBytes to maxBytes inclusive. */
    public record Override(long minBytes, long maxBytes, double tolerance) {
    }

    public double toleranceAt(long size) {
        double t = tolerance;
        for (Override o : overrides) {
            if (size >= o.minBytes() && size <= o.maxBytes()) {
                t = o.tolerance();
            }
        }
        return t;
    }

    public boolean latencyJudged(long size) {
        return size < latencyBelow;
    }

    /** Parses "5" or "5%" into 0.05; a usage error names the flag. */
    public static double percent(String flag, String text) {
        String t = text.strip();
        if (t.endsWith("%")) {
            t = t.substring(0, t.length() - 1);
        }
        double v;
        try {
            v = Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw NcclbenchException.usage(flag + " takes a percentage such as 5 or 7.5, not '" + text + "'");
        }
        if (!(v >= 0 && v < 1000)) {
            throw NcclbenchException.usage(flag + " must be between 0 and 1000 percent, got " + text);
        }
        return v / 100;
    }

    /** Parses "SIZE=PCT" or "MIN-MAX=PCT" (sizes with K, M, G suffixes). */
    public static List<Override> overrides(List<String> specs) {
        List<Override> out = new ArrayList<>();
        for (String s : specs == null ? List.<String>of() : specs) {
            int eq = s.indexOf('=');
            if (eq <= 0) {
                throw NcclbenchException.usage("--tolerance-at takes SIZE=PCT or MIN-MAX=PCT (e.g. 8-64K=25), not '"
                        + s + "'");
            }
            String range = s.substring(0, eq).strip();
            double tol = percent("--tolerance-at", s.substring(eq + 1));
            int dash = range.indexOf('-', 1);
            try {
                long lo = Sizes.parse(dash < 0 ? range : range.substring(0, dash));
                long hi = dash < 0 ? lo : Sizes.parse(range.substring(dash + 1));
                if (lo < 0 || hi < lo) {
                    throw new IllegalArgumentException("the range is empty");
                }
                out.add(new Override(lo, hi, tol));
            } catch (IllegalArgumentException e) {
                throw NcclbenchException.usage("--tolerance-at '" + s + "': " + e.getMessage());
            }
        }
        return out;
    }

    String describe() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "tolerance %s", pct(tolerance)));
        for (Override o : overrides) {
            sb.append(", ").append(Sizes.human(o.minBytes()));
            if (o.maxBytes() != o.minBytes()) {
                sb.append("-").append(Sizes.human(o.maxBytes()));
            }
            sb.append(' ').append(pct(o.tolerance()));
        }
        sb.append("; latency judged below ").append(Sizes.human(latencyBelow)).append(", busbw from there on; alpha ")
                .append(alpha);
        return sb.toString();
    }

    static String pct(double fraction) {
        double p = fraction * 100;
        return (p == Math.rint(p) ? String.format(Locale.ROOT, "%.0f", p) : String.format(Locale.ROOT, "%.1f", p))
                + "%";
    }
}
