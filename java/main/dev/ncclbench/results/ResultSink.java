package dev.ncclbench.results;

import dev.ncclbench.choices.NcclChoices;

import java.util.List;

/**
 * Where a sweep's results go, as they happen. The sweep engine calls, in this order:
 * <pre>
 *   beginRun(run)
 *   for each collective: beginCollective(name); row(row)...; endCollective(name)
 *   verdicts(rows)            (any time after the rows it names, zero or more times)
 *   finish(status, error)     (exactly once, also after a failure)
 * </pre>
 * Implementations are not thread-safe: one thread (rank 0's reporter) drives a sink. A failure to
 * write is an {@link java.io.UncheckedIOException} naming the file.
 */
public interface ResultSink {

    /** Statuses {@link #finish} accepts. */
    List<String> STATUSES = List.of("ok", "failed", "timeout", "interrupted");

    /** Everything known before the first row: the document as it begins (status "running", no rows). */
    void beginRun(ResultDocument run);

    /** A new table starts: {@code collective} is nccl-tests' name, e.g. "all_reduce". */
    void beginCollective(String collective);

    /** One finished row; written (and, for files, made durable) before this returns. */
    void row(ResultRow row);

    /** The table of {@code collective} is complete. */
    void endCollective(String collective);

    /**
     * Path verdicts found after the rows were written: each given row's verdict applies to every row
     * already written with the same collective, size, type, redop and root.
     */
    void verdicts(List<ResultRow> diagnosed);

    /**
     * What NCCL decided, read from the run's own log (any time before {@link #finish}); never called for a run
     * without a log, whose choices stay unknown. Sinks that do not record it ignore it.
     */
    default void choices(NcclChoices choices) {
    }

    /**
     * The run is over.
     *
     * @param status one of {@link #STATUSES}: "ok", "failed", "timeout", "interrupted"
     * @param error  a sentence saying what went wrong, or null
     */
    void finish(String status, String error);

    /** Rejects a status outside {@link #STATUSES}; a typo here would break every gate reading the result. */
    static String checkStatus(String status) {
        if (!STATUSES.contains(status)) {
            throw new IllegalArgumentException("unknown run status '" + status + "'; known: " + STATUSES);
        }
        return status;
    }
}
