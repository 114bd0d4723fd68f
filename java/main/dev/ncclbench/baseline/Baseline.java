package dev.ncclbench.baseline;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.ncclbench.choices.NcclChoices;

import java.util.ArrayList;
import java.util.List;

/**
 * A recorded baseline (docs/gate.md): the fingerprint of the runs it came from and, per table line, every
 * run's per-iteration samples and their statistics. Written under results/baselines/ as NAME.baseline.json.
 */
@JsonPropertyOrder({"kind", "schema_version", "name", "created_at", "fingerprint_id", "fingerprint", "runs",
        "entries"})
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Baseline(
        String kind,
        int schemaVersion,
        String name,
        String createdAt,
        String fingerprintId,
        Fingerprint fingerprint,
        List<Run> runs,
        List<Entry> entries) {

    public static final String KIND = "ncclbench.baseline";
    /** 2: kind "ncclbench.baseline" (was "ncclbench-baseline"); nothing else changed, so version 1 is read too. */
    public static final int SCHEMA_VERSION = 2;
    /** Version 1's kind, still read. */
    public static final String KIND_V1 = "ncclbench-baseline";

    /** Where one recorded run came from, and what NCCL decided in it (left out when the run kept no log). */
    @JsonPropertyOrder({"file", "started_at", "status", "cycles", "nccl_choices"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Run(String file, String startedAt,
                      String status, int cycles,
                      @com.fasterxml.jackson.annotation.JsonInclude(
                              com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                      NcclChoices ncclChoices) {
    }

    /** What NCCL decided in the baseline's runs: the first run's that kept a log; null when none did. */
    public NcclChoices ncclChoices() {
        return runs == null ? null : runs.stream().map(Run::ncclChoices).filter(java.util.Objects::nonNull)
                .findFirst().orElse(null);
    }

    /**
     * One table line and placement: the samples of each run (or -N cycle), their statistics and the table's time of
     * each. {@code inPlace} is null in a baseline recorded before placements were kept apart (both pooled): such an
     * entry stands for both. {@code tableOnly}: the groups are table times (runs written without samples).
     */
    @JsonPropertyOrder({"collective", "size", "type", "redop", "root", "in_place", "busbw_time_us", "table_only",
            "stats", "paths", "table_us", "groups"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Entry(
            String collective,
            long size,
            String type,
            String redop,
            int root,
            Boolean inPlace,
            double busbwTimeUs,
            Boolean tableOnly,
            Stats stats,
            List<String> paths,
            List<Double> tableUs,
            List<List<Double>> groups) {

        public SizeKey key() {
            return new SizeKey(collective, size, type, redop, root, Boolean.TRUE.equals(inPlace));
        }

        /** The keys this entry is the baseline of: its placement's, or both for a pooled entry of an older baseline. */
        public List<SizeKey> keys() {
            return inPlace == null ? List.of(key(), key().withInPlace(true)) : List.of(key());
        }

        public SizeSamples samples() {
            return samples(key());
        }

        public SizeSamples samples(SizeKey as) {
            List<double[]> g = new ArrayList<>();
            for (List<Double> l : groups) {
                g.add(l.stream().mapToDouble(d -> d == null ? Double.NaN : d).toArray());
            }
            List<Double> t = tableUs == null ? List.of() : tableUs.stream().map(d -> d == null ? Double.NaN : d).toList();
            return new SizeSamples(as, g, busbwTimeUs, paths == null ? List.of() : paths, t,
                    Boolean.TRUE.equals(tableOnly));
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
            List<Double> t = s.tableUs().stream().map(v -> Double.isFinite(v) ? v : null).toList();
            return new Entry(k.collective(), k.size(), k.type(), k.redop(), k.root(), k.inPlace(), s.busbwTimeUs(),
                    s.tableOnly(), Stats.of(s), s.paths(), t.isEmpty() ? null : t, g);
        }
    }

    /** Over every group's samples pooled, in microseconds; busbw at the median time in GB/s. */
    @JsonPropertyOrder({"groups", "count", "min_us", "p25_us", "median_us", "p75_us", "max_us", "busbw_median"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Stats(int groups, int count,
                        double minUs, double p25Us,
                        double medianUs, double p75Us,
                        double maxUs, double busbwMedian) {

        static Stats of(SizeSamples s) {
            double[] x = s.pooled();
            java.util.Arrays.sort(x);
            double median = Quantiles.of(x, 0.5);
            return new Stats(s.groups().size(), x.length, x[0], Quantiles.of(x, 0.25), median,
                    Quantiles.of(x, 0.75), x[x.length - 1], s.busbwAt(median));
        }
    }
}
