package dev.ncclbench.results;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.choices.NcclChoices;
import dev.ncclbench.output.AtomicFile;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one run's JSON document so that a crash keeps what was measured: while the run lasts every
 * row is appended to a journal ({@code <file>.partial}, JSON Lines) and forced to disk before
 * {@link #row} returns; {@link #finish} writes the whole document beside the target and moves it into
 * place atomically, then deletes the journal. A reader therefore sees either no document or a complete
 * one, and {@link ResultFiles#recover} turns a journal left by a crash into a document.
 */
final class JsonResultWriter implements ResultSink {
    private final Path file;
    private final Path journalFile;
    private final Clock clock;
    /**
     * A stream, not a FileChannel: a channel's writes go through the same JDK code as the socket backend's
     * (sun.nio.ch.IOUtil), and the first row's write, from a heap buffer to a file, threw away what the JIT had
     * compiled for sockets: it was compiled again inside the next size's timed loop.
     */
    private FileOutputStream journal;
    private ResultDocument header;
    private final List<ResultRow> rows = new ArrayList<>();
    private boolean finished;
    private NcclChoices choices;

    JsonResultWriter(Path file, Clock clock) {
        this.file = file;
        this.journalFile = ResultFiles.journalOf(file);
        this.clock = clock;
    }

    @Override
    public void beginRun(ResultDocument run) {
        if (header != null) {
            throw new IllegalStateException("beginRun called twice");
        }
        try {
            // created exclusively: the journal is the run's lock on its result file, so two jobs given one --json
            // cannot interleave their rows (the second is refused; OutputPaths says so before it runs)
            Files.createFile(journalFile);
            journal = new FileOutputStream(journalFile.toFile());
            AtomicFile.readableByAll(journalFile);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            throw NcclbenchException.usage(OutputPaths.journalTaken(file, journalFile));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the result journal " + journalFile + ": " + e.getMessage(), e);
        }
        header = run;
        append(ResultJson.line(header));
    }

    @Override
    public void beginCollective(String collective) {
        requireRun();
    }

    @Override
    public void row(ResultRow row) {
        requireRun();
        rows.add(row);
        append(ResultJson.line(new Journal.Entry(row, null)));
    }

    @Override
    public void endCollective(String collective) {
        requireRun();
    }

    @Override
    public void verdicts(List<ResultRow> diagnosed) {
        requireRun();
        for (ResultRow d : diagnosed) {
            if (d.verdict() == null) {
                continue;
            }
            Journal.applyVerdict(rows, d);
            append(ResultJson.line(new Journal.Entry(null, d)));
        }
    }

    @Override
    public void choices(NcclChoices c) {
        requireRun();
        this.choices = c;
    }

    @Override
    public void finish(String status, String error) {
        ResultSink.checkStatus(status);
        if (header == null) {
            // The run failed before it began: nothing to record, and throwing here would hide the real error.
            return;
        }
        if (finished) {
            throw new IllegalStateException("finish called twice");
        }
        finished = true;
        ResultDocument doc = header.finished(status, error, Instant.now(clock).toString(), rows).withChoices(choices);
        try {
            journal.close();
            ResultFiles.writeAtomically(file, doc);
            Files.deleteIfExists(journalFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot finalise the result " + file + " (the rows are kept in "
                    + journalFile + "): " + e.getMessage(), e);
        }
    }

    private void requireRun() {
        if (header == null) {
            throw new IllegalStateException("beginRun must come first");
        }
        if (finished) {
            throw new IllegalStateException("the run is finished");
        }
    }

    /** One line, then force: after this returns the line survives a crash of the process or the host. */
    private void append(String line) {
        try {
            journal.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            journal.getFD().sync();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the result journal " + journalFile + ": "
                    + e.getMessage(), e);
        }
    }
}
