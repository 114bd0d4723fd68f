package dev.ncclbench.output;

import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PrometheusTextTest {
    @Test
    void everyFamilyHasHelpAndTypeAndLabelValuesAreEscaped() {
        String text = new PrometheusText()
                .gauge("x_bad", "1 when bad.\nSecond line \\ here.")
                .sample("x_bad", 1, "host", "a\\b \"c\"\nd", "verdict", "bad")
                .gauge("x_rounds", "Rounds.")
                .sample("x_rounds", 7)
                .toString();
        assertEquals("# HELP x_bad 1 when bad.\\nSecond line \\\\ here.\n"
                + "# TYPE x_bad gauge\n"
                + "x_bad{host=\"a\\\\b \\\"c\\\"\\nd\",verdict=\"bad\"} 1\n"
                + "# HELP x_rounds Rounds.\n"
                + "# TYPE x_rounds gauge\n"
                + "x_rounds 7\n", text);
    }

    @Test
    void realValuesIgnoreTheLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertEquals("x{a=\"b\"} 12.3457\n", new PrometheusText().sample("x", 12.345678, "a", "b").toString());
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void labelsComeInPairs() {
        assertThrows(IllegalArgumentException.class, () -> new PrometheusText().sample("x", 1, "lonely"));
    }
}
