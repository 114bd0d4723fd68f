package dev.ncclbench.gate;

import java.util.Locale;

/**
 * node-exporter's textfile format: busbw and latency per size, the verdict per size and overall, and when the
 * gate ran. Put the file in the collector's folder (--collector.textfile.directory) with a .prom suffix.
 */
public final class GatePrometheus {
    private GatePrometheus() {
    }

    public static String render(GateReport r) {
        StringBuilder sb = new StringBuilder();
        String base = "baseline=\"" + label(r.baselineName() == null ? "" : r.baselineName()) + "\"";
        help(sb, "ncclbench_busbw_gbps", "Bus bandwidth at the median per-call time of the run, GB/s (1e9 B/s).");
        for (SizeResult s : r.sizes()) {
            if (s.status() != SizeResult.Status.MISSING && !s.latency() && Double.isFinite(s.runValue())) {
                sb.append("ncclbench_busbw_gbps{").append(labels(s)).append("} ").append(num(s.runValue())).append('\n');
            }
        }
        help(sb, "ncclbench_latency_us", "Median per-call time of the run, microseconds.");
        for (SizeResult s : r.sizes()) {
            if (s.comparison() != null || s.status() == SizeResult.Status.NEW) {
                double v = s.comparison() != null ? s.comparison().runMedianUs() : s.latency() ? s.runValue()
                        : Double.NaN;
                if (Double.isFinite(v)) {
                    sb.append("ncclbench_latency_us{").append(labels(s)).append("} ").append(num(v)).append('\n');
                }
            }
        }
        help(sb, "ncclbench_gate_size_failed", "1 when this size regressed or its path degraded, else 0.");
        for (SizeResult s : r.sizes()) {
            if (s.status() != SizeResult.Status.MISSING) {
                sb.append("ncclbench_gate_size_failed{").append(labels(s)).append(",status=\"")
                        .append(label(s.status().label)).append("\",").append(base).append("} ")
                        .append(s.status().fails() ? 1 : 0).append('\n');
            }
        }
        help(sb, "ncclbench_gate_verdict", "The gate's verdict: 1 for the verdict it reached, 0 for the others.");
        for (GateReport.Verdict v : GateReport.Verdict.values()) {
            sb.append("ncclbench_gate_verdict{verdict=\"").append(v.name().toLowerCase(Locale.ROOT)).append("\",")
                    .append(base).append("} ").append(v == r.verdict() ? 1 : 0).append('\n');
        }
        help(sb, "ncclbench_gate_timestamp_seconds", "When the gate ran, seconds since the Unix epoch.");
        sb.append("ncclbench_gate_timestamp_seconds ").append(r.timestamp()).append('\n');
        return sb.toString();
    }

    private static void help(StringBuilder sb, String name, String text) {
        sb.append("# HELP ").append(name).append(' ').append(text).append('\n');
        sb.append("# TYPE ").append(name).append(" gauge\n");
    }

    private static String labels(SizeResult s) {
        return "collective=\"" + label(s.key().collective()) + "\",size=\"" + s.key().size() + "\",type=\""
                + label(s.key().type()) + "\",root=\"" + s.key().root() + "\"";
    }

    /** Label values escape backslash, double quote and newline (the exposition format's rule). */
    static String label(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.6g", v);
    }
}
