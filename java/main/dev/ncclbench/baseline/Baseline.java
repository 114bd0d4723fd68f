package dev.ncclbench.baseline;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.ArrayList;
import java.util.List;

/**
 * A recorded baseline (docs/gate.md): the fingerprint of the runs it came from and, per table line, every
 * run's per-iteration samples and their statistics. Written under results/baselines/ as NAME.baseline.json.
 */
@JsonPropertyOrder({"kind", "schema_version", "name", "created_at", "fingerprint_id", "fingerprint", "runs",
        "entries"})
public record Baseline(
        @JsonProperty("kind") String kind,
        @JsonProperty("schema_version") int schemaVersion,
        @JsonProperty("name") String name,
        @JsonProperty("created_at") String createdAt,
        @JsonProperty("fingerprint_id") String fingerprintId,
        @JsonProperty("fingerprint") Fingerprint fingerprint,
        @JsonProperty("runs") List<Run> runs,
        @JsonProperty("entries") List<Entry> entries) {

    public static final String KIND = "ncclbench-baseline";
    public static final int SCHEMA_VERSION = 1;

    /** Where one recorded run came from. */
    @JsonPropertyOrder({"file", "started_at", "status", "cycles"})
    public record Run(@JsonProperty("file") String file, @JsonProperty("started_at") String startedAt,
                      @JsonProperty("status") String status, @JsonProperty("cycles") int cycles) {
    }

    /** One table line: the samples of each run (or -N cycle) and their statistics. */
    @JsonPropertyOrder({"collective", "size", "type", "redop", "root", "busbw_time_us", "stats", "paths", "groups"})
    public record Entry(
            @JsonProperty("collective") String collective,
            @JsonProperty("size") long size,
            @JsonProperty("type") String type,
            @JsonProperty("redop") String redop,
            @JsonProperty("root") int root,
            @JsonProperty("busbw_time_us") double busbwTimeUs,
            @JsonProperty("stats") Stats stats,
            @JsonProperty("paths") List<String> paths,
            @JsonProperty("groups") List<List<Double>> groups) {

        public SizeKey key() {
            return new SizeKey(collective, size, type, redop, root);
        }

        public SizeSamples samples() {
            List<double[]> g = new ArrayList<>();
            for (List<Double> l : groups) {
                g.add(l.stream().mapToDouble(Double::doubleValue).toArray());
            }
            return new SizeSamples(key(), g, busbwTimeUs, paths == null ? List.of() : paths);
        }

        static Entry of(SizeSamples s) {
            List<List<Double>> g = new ArrayList<>();
            for (double[] a : s.groups()) {
                List<Double> l = new ArrayList<>(a.length);
                for (double v : a) {
                    l.add(v);
                }
                g.add(l);
            }
            SizeKey k = s.key();
            return new Entry(k.collective(), k.size(), k.type(), k.redop(), k.root(), s.busbwTimeUs(),
                    Stats.of(s), s.paths(), g);
        }
    }

    /** Over every group's samples pooled, in microseconds; busbw at the median time in GB/s. */
    @JsonPropertyOrder({"groups", "count", "min_us", "p25_us", "median_us", "p75_us", "max_us", "busbw_median"})
    public record Stats(@JsonProperty("groups") int groups, @JsonProperty("count") int count,
                        @JsonProperty("min_us") double minUs, @JsonProperty("p25_us") double p25Us,
                        @JsonProperty("median_us") double medianUs, @JsonProperty("p75_us") double p75Us,
                        @JsonProperty("max_us") double maxUs, @JsonProperty("busbw_median") double busbwMedian) {

        static Stats of(SizeSamples s) {
            double[] x = s.pooled();
            java.util.Arrays.sort(x);
            double median = Quantiles.of(x, 0.5);
            return new Stats(s.groups().size(), x.length, x[0], Quantiles.of(x, 0.25), median,
                    Quantiles.of(x, 0.75), x[x.length - 1], s.busbwAt(median));
        }
    }
}
