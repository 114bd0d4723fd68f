package dev.ncclbench.output;

import java.util.Locale;

/**
 * Prometheus text exposition format (node-exporter's textfile collector, a push gateway): every metric family
 * opens with its HELP and TYPE lines; label values and help text are escaped by the format's rules.
 */
public final class PrometheusText {
    private final StringBuilder sb = new StringBuilder();

    /** Opens a gauge family: its HELP and TYPE lines. Samples of it follow. */
    public PrometheusText gauge(String name, String help) {
        sb.append("# HELP ").append(name).append(' ').append(help(help)).append('\n');
        sb.append("# TYPE ").append(name).append(" gauge\n");
        return this;
    }

    /** One sample; {@code labels} are name, value pairs in the order they are written. */
    public PrometheusText sample(String name, long value, String... labels) {
        return line(name, labels, Long.toString(value));
    }

    /** A real value, six significant digits (never a locale's decimal comma). */
    public PrometheusText sample(String name, double value, String... labels) {
        return line(name, labels, String.format(Locale.ROOT, "%.6g", value));
    }

    @Override
    public String toString() {
        return sb.toString();
    }

    private PrometheusText line(String name, String[] labels, String value) {
        if (labels.length % 2 != 0) {
            throw new IllegalArgumentException("labels come in name, value pairs: " + String.join(",", labels));
        }
        sb.append(name);
        if (labels.length > 0) {
            sb.append('{');
            for (int i = 0; i < labels.length; i += 2) {
                sb.append(i == 0 ? "" : ",").append(labels[i]).append("=\"").append(label(labels[i + 1])).append('"');
            }
            sb.append('}');
        }
        sb.append(' ').append(value).append('\n');
        return this;
    }

    /** Label values escape backslash, double quote and newline (the exposition format's rule). */
    public static String label(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /** Help text escapes backslash and newline only. */
    static String help(String v) {
        return v.replace("\\", "\\\\").replace("\n", "\\n");
    }
}
