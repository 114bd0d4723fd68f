package dev.ncclbench.gate;

import dev.ncclbench.output.PrometheusText;

import java.util.Locale;
import java.util.stream.Stream;

/**
 * node-exporter's textfile format: busbw and latency per size, the verdict per size and overall, and when the
 * gate ran. Put the file in the collector's folder (--collector.textfile.directory) with a .prom suffix.
 */
public final class GatePrometheus {
    private GatePrometheus() {
    }

    public static String render(GateReport r) {
        PrometheusText p = new PrometheusText();
        String baseline = r.baselineName() == null ? "" : r.baselineName();
        p.gauge("ncclbench_busbw_gbps", "Bus bandwidth at the median per-call time of the run, GB/s (1e9 B/s).");
        for (SizeResult s : r.sizes()) {
            if (s.status() != SizeResult.Status.MISSING && !s.latency() && Double.isFinite(s.runValue())) {
                p.sample("ncclbench_busbw_gbps", s.runValue(), labels(s));
            }
        }
        p.gauge("ncclbench_latency_us", "Median per-call time of the run, microseconds.");
        for (SizeResult s : r.sizes()) {
            if (s.comparison() != null || s.status() == SizeResult.Status.NEW) {
                double v = s.comparison() != null ? s.comparison().runMedianUs() : s.latency() ? s.runValue()
                        : Double.NaN;
                if (Double.isFinite(v)) {
                    p.sample("ncclbench_latency_us", v, labels(s));
                }
            }
        }
        p.gauge("ncclbench_gate_size_failed", "1 when this size regressed or its path degraded, else 0.");
        for (SizeResult s : r.sizes()) {
            if (s.status() != SizeResult.Status.MISSING) {
                p.sample("ncclbench_gate_size_failed", s.status().fails() ? 1 : 0, Stream.concat(Stream.of(labels(s)),
                        Stream.of("status", s.status().label, "baseline", baseline)).toArray(String[]::new));
            }
        }
        p.gauge("ncclbench_gate_verdict", "The gate's verdict: 1 for the verdict it reached, 0 for the others.");
        for (GateReport.Verdict v : GateReport.Verdict.values()) {
            p.sample("ncclbench_gate_verdict", v == r.verdict() ? 1 : 0,
                    "verdict", v.name().toLowerCase(Locale.ROOT), "baseline", baseline);
        }
        p.gauge("ncclbench_gate_timestamp_seconds", "When the gate ran, seconds since the Unix epoch.");
        p.sample("ncclbench_gate_timestamp_seconds", r.timestamp());
        return p.toString();
    }

    private static String[] labels(SizeResult s) {
        return new String[]{"collective", s.key().collective(), "size", String.valueOf(s.key().size()),
                "type", s.key().type(), "root", String.valueOf(s.key().root()), "placement", s.key().placement()};
    }
}
