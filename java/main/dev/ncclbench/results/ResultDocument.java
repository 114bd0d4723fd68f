package dev.ncclbench.results;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

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
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        NcclChoices ncclChoices) {

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

    public ResultDocument {
        commandLine = commandLine == null ? List.of() : List.copyOf(commandLine);
        ranks = ranks == null ? List.of() : ranks;
        rows = rows == null ? List.of() : rows;
    }

    /**
     * The document of a run that has just begun: everything known before its first row, status "running", no rows.
     * It is written first (the journal's header line), so that a partial result still says what it was.
     *
     * @param backendReason   why this backend ran (e.g. "auto: no NVIDIA driver (libcuda.so.1 not found)")
     * @param versions        "ncclbench", "java", "nccl", "cuda_runtime", "driver", "ofed", "os" as known
     * @param environment     NCCL_*, CUDA_*, UCX_*, OMPI_*, SLURM_* variables; secrets redacted
     * @param ncclLogFiles    the run's NCCL_DEBUG_FILE outputs, relative to the JSON's folder
     * @param notes           lines the header prints after the options (e.g. why -e was capped)
     * @param commandLine     the command as typed ("ncclbench", "sweep", ...), URL passwords redacted; empty when unknown
     * @param backendAsked    --backend as given: auto, nccl or socket (backend is the one that ran)
     */
    public static ResultDocument begin(String toolVersion, String startedAt, String backend, String backendReason,
                                       RunSpec spec, int nranks, Map<String, String> versions, List<RankInfo> ranks,
                                       Map<String, String> environment, List<String> ncclLogFiles, List<String> notes,
                                       List<String> commandLine, String backendAsked) {
        return new ResultDocument(SCHEMA_VERSION, TOOL, toolVersion, startedAt, null, RUNNING, null, backend,
                backendAsked, backendReason, commandLine, spec, orEmpty(versions), nranks,
                ranks == null ? List.of() : List.copyOf(ranks), orEmpty(environment), orEmptyList(ncclLogFiles),
                orEmptyList(notes), List.of(), null);
    }

    /** As {@link #begin}, without a recorded command line (a run built in code): --backend as the spec says. */
    public static ResultDocument begin(String toolVersion, String startedAt, String backend, String backendReason,
                                       RunSpec spec, int nranks, Map<String, String> versions, List<RankInfo> ranks,
                                       Map<String, String> environment, List<String> ncclLogFiles, List<String> notes) {
        return begin(toolVersion, startedAt, backend, backendReason, spec, nranks, versions, ranks, environment,
                ncclLogFiles, notes, List.of(), spec == null ? null : spec.placement().backend());
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
     * is fixed at {@link #begin}. The one place a document is copied, so that the withers name only what they change.
     */
    private ResultDocument ending(String endFinishedAt, String endStatus, String endError, List<ResultRow> endRows,
                                  NcclChoices endChoices) {
        return new ResultDocument(schemaVersion, tool, toolVersion, startedAt, endFinishedAt, endStatus, endError, backend,
                backendAsked, backendReason, commandLine, spec, versions, nranks, ranks, environment, ncclLogFiles, notes,
                endRows, endChoices);
    }

    private static Map<String, String> orEmpty(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }

    private static List<String> orEmptyList(List<String> l) {
        return l == null ? List.of() : l;
    }
}
