package dev.ncclbench.finding;

import java.util.List;
import java.util.Locale;

/** `--fail-on warn|error`: the lowest severity that makes a command fail. */
public enum FailOn {
    WARN(Severity.WARNING), ERROR(Severity.ERROR);

    public final Severity threshold;

    FailOn(Severity threshold) {
        this.threshold = threshold;
    }

    public boolean fails(List<Finding> findings) {
        return findings.stream().anyMatch(f -> f.severity().compareTo(threshold) >= 0);
    }

    /** Parses "warn", "warning" or "error", any case; anything else is a usage error for the caller. */
    public static FailOn parse(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "warn", "warning" -> WARN;
            case "error" -> ERROR;
            default -> throw new IllegalArgumentException("--fail-on takes warn or error, not '" + text + "'");
        };
    }
}
