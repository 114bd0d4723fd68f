package dev.ncclbench.results;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.ncclbench.choices.NcclChoices;
import dev.ncclbench.spec.RunSpec;

import java.util.List;
import java.util.Map;

/**
 * One run's JSON result, schema version 1 (docs/results-schema.md). The field names of the file are
 * the {@code @JsonProperty} names here; the Java names follow the rest of the code.
 *
 * <p>The record written is the record read: the sweep's rows ({@link ResultRow}, {@link Measurement},
 * {@link SampleStats}) are written as they are; a number never measured is NaN in them and null in the file
 * ({@link dev.ncclbench.output.NanAsNull}).
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
        List<ResultRow> rows,
        @JsonInclude(JsonInclude.Include.NON_NULL)
        NcclChoices ncclChoices) {

    public static final int SCHEMA_VERSION = 1;
    /** Added in version 1 without a bump (an added field): every document says what it is. */
    public static final String KIND = "ncclbench.result";
    public static final String TOOL = "ncclbench";
    /** The status of a document rebuilt from a journal the run never finished. */
    public static final String INCOMPLETE = "incomplete";
    /** The status in a journal's header line while the run lasts. */
    static final String RUNNING = "running";

    @JsonProperty(value = "kind", access = JsonProperty.Access.READ_ONLY)
    public String kind() {
        return KIND;
    }

    public ResultDocument {
        commandLine = commandLine == null ? List.of() : List.copyOf(commandLine);
        ranks = ranks == null ? List.of() : ranks;
        rows = rows == null ? List.of() : rows;
    }

    /**
     * The document of a run that has just begun: everything known before its first row, each field named, then
     * {@link Builder#begun()} (status "running", no rows). It is written first (the journal's header line), so that a
     * partial result still says what it was.
     */
    public static Builder begin() {
        return new Builder();
    }

    /** This document's fields in a builder: a test's variant of a fixture, and {@link #ending}. */
    Builder toBuilder() {
        return new Builder(this);
    }

    ResultDocument finished(String newStatus, String newError, String newFinishedAt, List<ResultRow> allRows) {
        return ending(newFinishedAt, newStatus, newError, List.copyOf(allRows), ncclChoices);
    }

    /**
     * With what NCCL decided, read from the run's own log; null (the field left out) when the run kept no log:
     * its choices are unknown.
     */
    ResultDocument withChoices(NcclChoices choices) {
        return ending(finishedAt, status, error, rows, choices);
    }

    /**
     * The same document with what only the run's end knows (its outcome, its rows, NCCL's choices): every other field
     * is fixed at {@link #begin}.
     */
    private ResultDocument ending(String endFinishedAt, String endStatus, String endError, List<ResultRow> endRows,
                                  NcclChoices endChoices) {
        Builder b = toBuilder();
        b.finishedAt = endFinishedAt;
        b.status = endStatus;
        b.error = endError;
        b.rows = endRows;
        b.ncclChoices = endChoices;
        return b.build();
    }

    /**
     * A document by name, field by field, in the order of the file. What a run knows when it begins has a setter;
     * what only its end knows (finished_at, status, error, rows, nccl_choices) is set by {@link #ending} alone.
     */
    public static final class Builder {
        private int schemaVersion = SCHEMA_VERSION;
        private String tool = TOOL;
        private String toolVersion;
        private String startedAt;
        private String finishedAt;
        private String status = RUNNING;
        private String error;
        private String backend;
        private String backendAsked;
        private String backendReason;
        private List<String> commandLine = List.of();
        private RunSpec spec;
        private Map<String, String> versions = Map.of();
        private int nranks;
        private List<RankInfo> ranks = List.of();
        private Map<String, String> environment = Map.of();
        private List<String> ncclLogFiles = List.of();
        private List<String> notes = List.of();
        private List<ResultRow> rows = List.of();
        private NcclChoices ncclChoices;

        private Builder() {
        }

        private Builder(ResultDocument d) {
            schemaVersion = d.schemaVersion;
            tool = d.tool;
            toolVersion = d.toolVersion;
            startedAt = d.startedAt;
            finishedAt = d.finishedAt;
            status = d.status;
            error = d.error;
            backend = d.backend;
            backendAsked = d.backendAsked;
            backendReason = d.backendReason;
            commandLine = d.commandLine;
            spec = d.spec;
            versions = d.versions;
            nranks = d.nranks;
            ranks = d.ranks;
            environment = d.environment;
            ncclLogFiles = d.ncclLogFiles;
            notes = d.notes;
            rows = d.rows;
            ncclChoices = d.ncclChoices;
        }

        public Builder toolVersion(String v) {
            toolVersion = v;
            return this;
        }

        public Builder startedAt(String isoInstant) {
            startedAt = isoInstant;
            return this;
        }

        /** The backend that ran. */
        public Builder backend(String name) {
            backend = name;
            return this;
        }

        /** --backend as given: auto, nccl or socket; left unset, the spec's (a run built in code). */
        public Builder backendAsked(String asked) {
            backendAsked = asked;
            return this;
        }

        /** Why this backend ran (e.g. "auto: no NVIDIA driver (libcuda.so.1 not found)"). */
        public Builder backendReason(String reason) {
            backendReason = reason;
            return this;
        }

        /** The command as typed ("ncclbench", "sweep", ...), URL passwords redacted; empty when unknown. */
        public Builder commandLine(List<String> argv) {
            commandLine = argv == null ? List.of() : argv;
            return this;
        }

        public Builder spec(RunSpec s) {
            spec = s;
            return this;
        }

        /** "ncclbench", "java", "nccl", "cuda_runtime", "driver", "ofed", "os" as known. */
        public Builder versions(Map<String, String> v) {
            versions = orEmpty(v);
            return this;
        }

        public Builder nranks(int n) {
            nranks = n;
            return this;
        }

        public Builder ranks(List<RankInfo> r) {
            ranks = r == null ? List.of() : List.copyOf(r);
            return this;
        }

        /** NCCL_*, CUDA_*, UCX_*, OMPI_*, SLURM_* variables; secrets redacted. */
        public Builder environment(Map<String, String> e) {
            environment = orEmpty(e);
            return this;
        }

        /** The run's NCCL_DEBUG_FILE outputs, relative to the JSON's folder. */
        public Builder ncclLogFiles(List<String> files) {
            ncclLogFiles = orEmptyList(files);
            return this;
        }

        /** Lines the header prints after the options (e.g. why -e was capped). */
        public Builder notes(List<String> n) {
            notes = orEmptyList(n);
            return this;
        }

        /** The document as begun; --backend left unset is the spec's. */
        public ResultDocument begun() {
            if (backendAsked == null && spec != null) {
                backendAsked = spec.placement().backend();
            }
            return build();
        }

        /** The one place the document's fields are listed, in the file's order. */
        private ResultDocument build() {
            return new ResultDocument(schemaVersion, tool, toolVersion, startedAt, finishedAt, status, error, backend,
                    backendAsked, backendReason, commandLine, spec, versions, nranks, ranks, environment, ncclLogFiles,
                    notes, rows, ncclChoices);
        }
    }

    private static Map<String, String> orEmpty(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }

    private static List<String> orEmptyList(List<String> l) {
        return l == null ? List.of() : l;
    }
}
