package dev.ncclbench.results;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The few C printf conversions the nccl-tests table uses, byte for byte as glibc prints them.
 *
 * <p>Java's Formatter differs from C: its {@code %g} never strips trailing zeros and switches to
 * exponent form at other thresholds, and its {@code %f} rounds the shortest decimal representation
 * half-up, where glibc rounds the exact binary value half-to-even (0.125 prints "0.12" in C, "0.13" in
 * Java). So every conversion here works on {@code new BigDecimal(double)}, the exact value, and never
 * looks at the default locale.
 */
final class CFormat {
    /** C's default precision for %g and %e. */
    private static final int DEFAULT_PRECISION = 6;

    private CFormat() {
    }

    /** C {@code %.{decimals}f}. */
    static String fixed(double value, int decimals) {
        String special = special(value);
        if (special != null) {
            return special;
        }
        BigDecimal exact = new BigDecimal(Math.abs(value));
        String digits = exact.setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        return sign(value) + digits;
    }

    /** C {@code %.{decimals}e}. */
    static String exponent(double value, int decimals) {
        String special = special(value);
        if (special != null) {
            return special;
        }
        Decimal d = Decimal.of(Math.abs(value), decimals + 1);
        StringBuilder sb = new StringBuilder(sign(value)).append(d.digits.charAt(0));
        if (decimals > 0) {
            sb.append('.').append(d.digits, 1, decimals + 1);
        }
        return sb.append(exponentSuffix(d.exponent)).toString();
    }

    /** C {@code %g}: 6 significant digits, trailing zeros stripped, exponent form below 1e-4 or from 1e6. */
    static String general(double value) {
        String special = special(value);
        if (special != null) {
            return special;
        }
        if (value == 0) {
            return sign(value) + "0";
        }
        int p = DEFAULT_PRECISION;
        // C decides the style on the exponent the value has after rounding to p digits (999999.5 -> 1e+06).
        Decimal d = Decimal.of(Math.abs(value), p);
        if (d.exponent < -4 || d.exponent >= p) {
            String mantissa = stripZeros(d.digits.charAt(0) + "." + d.digits.substring(1));
            return sign(value) + mantissa + exponentSuffix(d.exponent);
        }
        return sign(value) + stripZeros(fixed(Math.abs(value), p - 1 - d.exponent));
    }

    /** C {@code %{width}g}. */
    static String general(double value, int width) {
        return padLeft(general(value), width);
    }

    /**
     * nccl-tests' getFloatStr (v2.19.6): the first of %.2f, %.1f, %.0f that fits in {@code width}
     * characters, else %.1e (width >= 7) or %.0e, cut to {@code width} characters as snprintf into a
     * buffer of width + 1 cuts it. Right-aligned to {@code width}.
     */
    static String fit(double value, int width) {
        for (int decimals = 2; decimals >= 0; decimals--) {
            String s = fixed(value, decimals);
            if (s.length() <= width) {
                return padLeft(s, width);
            }
        }
        String s = exponent(value, width >= 7 ? 1 : 0);
        return padLeft(s.length() > width ? s.substring(0, width) : s, width);
    }

    /** C {@code %{width}s} and {@code %{width}d}: right-aligned, never cut. */
    static String padLeft(String s, int width) {
        if (s.length() >= width) {
            return s;
        }
        return " ".repeat(width - s.length()) + s;
    }

    /** C {@code %-{width}s}. */
    static String padRight(String s, int width) {
        if (s.length() >= width) {
            return s;
        }
        return s + " ".repeat(width - s.length());
    }

    private static String special(double value) {
        if (Double.isNaN(value)) {
            // glibc prints the sign bit of a NaN; 0.0/0.0 on x86 is a negative NaN.
            return (Double.doubleToRawLongBits(value) < 0 ? "-" : "") + "nan";
        }
        if (Double.isInfinite(value)) {
            return value < 0 ? "-inf" : "inf";
        }
        return null;
    }

    private static String sign(double value) {
        // The sign bit, not value < 0: C prints "-0" for negative zero.
        return Double.doubleToRawLongBits(value) < 0 ? "-" : "";
    }

    private static String exponentSuffix(int exponent) {
        String digits = Integer.toString(Math.abs(exponent));
        return (exponent < 0 ? "e-" : "e+") + (digits.length() < 2 ? "0" + digits : digits);
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }

    /** A non-negative value rounded half-even to {@code significant} digits: digits d0 d1 ... times 10^exponent. */
    private record Decimal(String digits, int exponent) {
        static Decimal of(double nonNegative, int significant) {
            if (nonNegative == 0) {
                return new Decimal("0".repeat(significant), 0);
            }
            BigDecimal rounded = new BigDecimal(nonNegative).round(new MathContext(significant, RoundingMode.HALF_EVEN));
            BigInteger unscaled = rounded.unscaledValue();
            String digits = unscaled.toString();
            int exponent = digits.length() - 1 - rounded.scale();
            if (digits.length() < significant) {
                digits = digits + "0".repeat(significant - digits.length());
            } else if (digits.length() > significant) {
                // round() keeps trailing zeros of an exact value only up to its precision; cut the rest.
                digits = digits.substring(0, significant);
            }
            return new Decimal(digits, exponent);
        }
    }
}
