package dev.ncclbench.results;

import dev.ncclbench.choices.NcclChoices;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/** Creates the result sinks; the writers behind them are package-private. */
public final class ResultSinks {
    private ResultSinks() {
    }

    /**
     * The nccl-tests-compatible text table, written to {@code out} (flushed after every row).
     *
     * @param iterationClock what the backend times -R's per-iteration samples with
     */
    public static ResultSink text(PrintWriter out, IterationClock iterationClock) {
        return new TableWriter(Objects.requireNonNull(out, "out"), iterationClock);
    }

    /**
     * The JSON document (schema version 1) at {@code file}. While the run lasts, rows are journaled to
     * {@link ResultFiles#journalOf(Path)}; {@link ResultSink#finish} replaces it atomically by the document.
     */
    public static ResultSink json(Path file) {
        return json(file, Clock.systemUTC());
    }

    /** As {@link #json(Path)}, with the clock that stamps finished_at. */
    public static ResultSink json(Path file, Clock clock) {
        return new JsonResultWriter(Objects.requireNonNull(file, "file"), Objects.requireNonNull(clock, "clock"));
    }

    /**
     * nccl-tests' own JSON (-J, version 3) at {@code file}, or FILE.N when FILE exists; the name taken is said on
     * {@code out} before the table, as nccl-tests says it.
     */
    public static ResultSink ncclTestsJson(Path file, PrintWriter out) {
        return new NcclTestsJsonWriter(Objects.requireNonNull(file, "file"), out, Clock.systemDefaultZone());
    }

    /**
     * Every call goes to each sink in order (e.g. the table on stdout and the JSON file). A sink that
     * throws stops the call there: put the sink whose failure matters least last.
     */
    public static ResultSink tee(ResultSink... sinks) {
        List<ResultSink> all = List.of(sinks);
        return new ResultSink() {
            @Override
            public void beginRun(ResultDocument run) {
                all.forEach(s -> s.beginRun(run));
            }

            @Override
            public void beginCollective(String collective) {
                all.forEach(s -> s.beginCollective(collective));
            }

            @Override
            public void row(ResultRow row) {
                all.forEach(s -> s.row(row));
            }

            @Override
            public void endCollective(String collective) {
                all.forEach(s -> s.endCollective(collective));
            }

            @Override
            public void verdicts(List<ResultRow> diagnosed) {
                all.forEach(s -> s.verdicts(diagnosed));
            }

            @Override
            public void choices(NcclChoices choices) {
                all.forEach(s -> s.choices(choices));
            }

            @Override
            public void finish(String status, String error) {
                all.forEach(s -> s.finish(status, error));
            }
        };
    }
}
