package dev.ncclbench.results;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.ncclbench.spec.RunSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One run's JSON result, schema version 1 (docs/results-schema.md). The field names of the file are
 * the {@code @JsonProperty} names here; the Java names follow the rest of the code.
 *
 * <p>Numbers that are not finite (a time never measured) are written as null and read back as NaN,
 * so the file stays valid JSON.
 */
@JsonPropertyOrder({"kind", "schema_version", "tool", "tool_version", "started_at", "finished_at", "status", "error",
        "backend", "backend_asked", "backend_reason", "command_line", "spec", "versions", "nranks", "ranks", "environment", "nccl_log_files",
        "notes", "rows", "nccl_choices"})
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ResultDocument(
        int schemaVersion,
        String tool,
        String toolVersion,
        String startedAt,
        String finishedAt,
        String status,
        String error,
        String backend,
        String backendAsked,
        String backendReason,
        List<String> commandLine,
        RunSpec spec,
        Map<String, String> versions,
        int nranks,
        List<RankInfo> ranks,
        Map<String, String> environment,
        List<String> ncclLogFiles,
        List<String> notes,
        List<Row> rows,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        dev.ncclbench.choices.NcclChoices ncclChoices) {

    public static final int SCHEMA_VERSION = 1;
    /** Added in version 1 without a bump (an added field): every document says what it is. */
    public static final String KIND = "ncclbench.result";
    public static final String TOOL = "ncclbench";
    /** The status of a document rebuilt from a journal the run never finished. */
    public static final String INCOMPLETE = "incomplete";
    /** The status in a journal's header line while the run lasts. */
    static final String RUNNING = "running";

    @com.fasterxml.jackson.annotation.JsonProperty(value = "kind", access = com.fasterxml.jackson.annotation.JsonProperty.Access.READ_ONLY)
    public String kind() {
        return KIND;
    }

    /** The document of a run that has just begun: no rows, status "running". */
    static ResultDocument begin(RunInfo run) {
        List<RankInfo> ranks = run.ranks() == null ? List.of() : List.copyOf(run.ranks());
        return new ResultDocument(SCHEMA_VERSION, TOOL, run.toolVersion(), run.startedAt(), null, RUNNING, null,
                run.backend(), run.backendAsked(), run.backendReason(), run.commandLine(), run.spec(),
                orEmpty(run.versions()), run.nranks(), ranks, orEmpty(run.environment()),
                orEmptyList(run.ncclLogFiles()), orEmptyList(run.notes()), List.of(), null);
    }

    ResultDocument finished(String newStatus, String newError, String newFinishedAt, List<Row> allRows) {
        return new ResultDocument(schemaVersion, tool, toolVersion, startedAt, newFinishedAt, newStatus, newError,
                backend, backendAsked, backendReason, commandLine, spec, versions, nranks, ranks, environment, ncclLogFiles, notes,
                List.copyOf(allRows), ncclChoices);
    }

    /**
     * With what NCCL decided, read from the run's own log; null (the field left out) when the run kept no log:
     * its choices are unknown.
     */
    ResultDocument withChoices(dev.ncclbench.choices.NcclChoices choices) {
        return new ResultDocument(schemaVersion, tool, toolVersion, startedAt, finishedAt, status, error, backend,
                backendAsked, backendReason, commandLine, spec, versions, nranks, ranks, environment, ncclLogFiles,
                notes, rows, choices);
    }

    /** The run as the rest of the code models it (e.g. to print the table again from a file). */
    public RunInfo runInfo() {
        return new RunInfo(toolVersion, startedAt, backend, backendReason, spec,
                nranks, versions, ranks == null ? List.of() : ranks, environment, ncclLogFiles, notes, commandLine, backendAsked);
    }

    /** The rows as the rest of the code models them. */
    public List<ResultRow> resultRows() {
        List<ResultRow> out = new ArrayList<>();
        for (Row r : rows == null ? List.<Row>of() : rows) {
            out.add(r.toResultRow());
        }
        return out;
    }

    /** One table row: size is max(send, receive) bytes; count is the count passed to the call. */
    @JsonPropertyOrder({"collective", "size", "count", "type", "redop", "root", "cycle", "algorithm", "out_of_place",
            "in_place", "verdict"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Row(
            String collective,
            long size,
            long count,
            String type,
            String redop,
            int root,
            int cycle,
            String algorithm,
            Placement outOfPlace,
            Placement inPlace,
            RouteVerdict verdict) {

        static Row from(ResultRow r) {
            return new Row(r.collective(), r.sizeBytes(), r.count(), r.type(), r.redop(), r.root(), r.cycle(), r.algorithm(),
                    Placement.from(r.outOfPlace(), r.samplesOutOfPlace()),
                    Placement.from(r.inPlace(), r.samplesInPlace()), r.verdict());
        }

        public ResultRow toResultRow() {
            return new ResultRow(collective, size, count, type, redop, root,
                    outOfPlace == null ? null : outOfPlace.toMeasurement(),
                    inPlace == null ? null : inPlace.toMeasurement(),
                    outOfPlace == null ? null : outOfPlace.toStats(),
                    inPlace == null ? null : inPlace.toStats(),
                    verdict, cycle, algorithm);
        }

        /** Whether a verdict found for {@code other} applies to this row: the same table line, up to repeats. */
        boolean sameLine(Row other) {
            return collective.equals(other.collective) && size == other.size && java.util.Objects.equals(type,
                    other.type) && java.util.Objects.equals(redop, other.redop) && root == other.root;
        }

        Row withVerdict(RouteVerdict v) {
            return new Row(collective, size, count, type, redop, root, cycle, algorithm, outOfPlace, inPlace, v);
        }
    }

    /**
     * One placement: time in microseconds, bandwidths in GB/s (1e9 bytes per second), wrong null when the
     * results were not checked (-c 0).
     */
    @JsonPropertyOrder({"time_us", "algbw", "busbw", "wrong", "wrong_ranks", "samples", "samples_us"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Placement(
            Double timeUs,
            Double algbw,
            Double busbw,
            Long wrong,
            Integer wrongRanks,
            Samples samples,
            List<Double> samplesUs) {

        static Placement from(Measurement m, SampleStats s) {
            if (m == null) {
                return null;
            }
            return new Placement(finite(m.timeUs()), finite(m.algbw()), finite(m.busbw()),
                    m.checked() ? m.wrong() : null, m.checked() ? m.wrongRanks() : null, Samples.from(s),
                    s == null || s.valuesUs().isEmpty() ? null : s.valuesUs());
        }

        SampleStats toStats() {
            return samples == null ? null : samples.toStats(samplesUs);
        }

        Measurement toMeasurement() {
            return wrongRanks == null
                    ? new Measurement(nan(timeUs), nan(algbw), nan(busbw), wrong == null ? -1 : wrong)
                    : new Measurement(nan(timeUs), nan(algbw), nan(busbw), wrong == null ? -1 : wrong, wrongRanks);
        }
    }

    /** Statistics of the per-iteration samples, in microseconds (cv in percent). */
    @JsonPropertyOrder({"count", "min_us", "median_us", "p99_us", "max_us", "mean_us", "cv_percent"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Samples(
            int count,
            Double minUs,
            Double medianUs,
            Double p99Us,
            Double maxUs,
            Double meanUs,
            Double cvPercent) {

        static Samples from(SampleStats s) {
            if (s == null) {
                return null;
            }
            return new Samples(s.count(), finite(s.minUs()), finite(s.medianUs()), finite(s.p99Us()),
                    finite(s.maxUs()), finite(s.meanUs()), finite(s.cvPercent()));
        }

        SampleStats toStats(List<Double> values) {
            return new SampleStats(count, nan(minUs), nan(medianUs), nan(p99Us), nan(maxUs), nan(meanUs),
                    nan(cvPercent), values);
        }
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    private static double nan(Double v) {
        return v == null ? Double.NaN : v;
    }

    private static Map<String, String> orEmpty(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }

    private static List<String> orEmptyList(List<String> l) {
        return l == null ? List.of() : l;
    }
}
