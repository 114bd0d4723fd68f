package dev.ncclbench;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one rule for what a result, a log summary or a snapshot must not carry: the value of a variable whose name
 * looks secret, and the password inside a URL ({@code http://user:pass@host}).
 */
public final class Redactor {
    public static final String REDACTED = "<redacted>";
    /** A name containing any of these (any case) holds a secret. */
    public static final List<String> SECRET_WORDS = List.of("KEY", "TOKEN", "PASSWORD", "PASSWD", "SECRET", "CREDENTIAL");
    private static final Pattern URL_PASSWORD = Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*://[^\\s/:@]*):[^\\s/@]*@");

    private Redactor() {
    }

    public static boolean secretName(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        for (String w : SECRET_WORDS) {
            if (upper.contains(w)) {
                return true;
            }
        }
        return false;
    }

    /** The value as it may be recorded: redacted whole for a secret name, else with URL passwords hidden. */
    public static String value(String name, String value) {
        if (value == null) {
            return null;
        }
        return secretName(name) ? REDACTED : urls(value);
    }

    /** {@code scheme://user:pass@host} becomes {@code scheme://user:<redacted>@host}; other text is unchanged. */
    public static String urls(String text) {
        return text == null ? null : URL_PASSWORD.matcher(text).replaceAll("$1:" + REDACTED.replace("$", "\\$") + "@");
    }
}
