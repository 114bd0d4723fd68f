package dev.ncclbench.spec;

/** C's number reading where nccl-tests' own values must read the same here (its environment variables). */
final class CNumbers {
    private CNumbers() {
    }

    /**
     * strtoul: leading blanks, a sign, then digits in {@code base} (0: 0x hex, 0 octal, else decimal; 16 takes an
     * optional 0x); what follows the digits is ignored. Null when no digit was read (C's end pointer unmoved).
     * A minus negates in unsigned arithmetic, as C does; too large a value is C's ULONG_MAX.
     */
    static Long strtoul(String s, int base) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        boolean hexPrefix = i + 2 < s.length() && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X')
                && Character.digit(s.charAt(i + 2), 16) >= 0;
        if (base == 0) {
            base = hexPrefix ? 16 : (i < s.length() && s.charAt(i) == '0') ? 8 : 10;
        }
        if (base == 16 && hexPrefix) {
            i += 2;
        }
        int start = i;
        long value = 0;
        boolean overflow = false;
        while (i < s.length() && Character.digit(s.charAt(i), base) >= 0) {
            long next = value * base + Character.digit(s.charAt(i), base);
            if (Long.compareUnsigned(value, Long.divideUnsigned(-1L, base)) > 0 || Long.compareUnsigned(next, value) < 0) {
                overflow = true;
            }
            value = next;
            i++;
        }
        if (i == start) {
            return null;
        }
        if (overflow) {
            return -1L;
        }
        return negative ? -value : value;
    }
}
