package dev.ncclbench.results;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CFormatTest {

    @Test
    void generalMatchesKnownCOutputs() {
        assertEquals("0", CFormat.general(0));
        assertEquals("1.5", CFormat.general(1.5));
        assertEquals("1.23457e+08", CFormat.general(123456789));
        assertEquals("0.0001", CFormat.general(0.0001));
        assertEquals("1e-05", CFormat.general(0.00001));
        assertEquals("12.3456", CFormat.general(12.3456));
        assertEquals("100000", CFormat.general(100000));
        assertEquals("1e+06", CFormat.general(999999.5));
        assertEquals("     3", CFormat.general(3, 6));
        assertEquals("1.23457e+06", CFormat.general(1234567, 6));
    }

    @Test
    void fixedRoundsTheExactBinaryValueHalfEven() {
        assertEquals("0.12", CFormat.fixed(0.125, 2));  // Java's %.2f says 0.13
        assertEquals("2.67", CFormat.fixed(2.675, 2));  // 2.675 is 2.67499999... in binary
        assertEquals("-0.00", CFormat.fixed(-0.001, 2));
        assertEquals("2", CFormat.fixed(2.5, 0));
        assertEquals("4", CFormat.fixed(3.5, 0));
    }

    @Test
    void fitTriesFewerDecimalsThenExponentAndCutsToWidth() {
        assertEquals("   1.50", CFormat.fit(1.5, 7));
        assertEquals("1000.0", CFormat.fit(999.995, 6));
        assertEquals(" 12346", CFormat.fit(12345.678, 6));
        assertEquals("1.2e+07", CFormat.fit(12345678.9, 7));
        assertEquals(" 1e+06", CFormat.fit(1234567, 6));
        assertEquals("1.5e+10", CFormat.fit(1.5e100, 7)); // snprintf cuts "1.5e+100" to 7 characters
        assertEquals("    nan", CFormat.fit(Double.NaN, 7));
    }

    /** Every line of printf-reference.tsv was printed by glibc 2.36 (printf-reference.c). */
    @Test
    void matchesGlibcOnTheReferenceTable() throws IOException {
        List<String> lines;
        try (InputStream in = getClass().getResourceAsStream("/cformat/printf-reference.tsv")) {
            lines = new String(in.readAllBytes(), StandardCharsets.US_ASCII).lines().toList();
        }
        int checked = 0;
        for (String line : lines) {
            if (line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            double v = Double.parseDouble(f[0]);
            String what = "value " + f[0] + " (" + f[1] + ")";
            assertEquals(f[1], CFormat.general(v), "%g of " + what);
            assertEquals(f[2], "[" + CFormat.fit(v, 7) + "]", "fit 7 of " + what);
            assertEquals(f[3], "[" + CFormat.fit(v, 6) + "]", "fit 6 of " + what);
            assertEquals(f[4], CFormat.fixed(v, 2), "%.2f of " + what);
            assertEquals(f[5], CFormat.exponent(v, 1), "%.1e of " + what);
            checked++;
        }
        assertTrue(checked > 80, "reference table read: " + checked + " values");
    }
}
