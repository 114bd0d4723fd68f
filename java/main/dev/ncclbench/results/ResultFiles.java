package dev.ncclbench.results;

import com.fasterxml.jackson.core.JsonProcessingException;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.output.AtomicFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reading result documents, and recovering the journal a crashed run left behind. */
public final class ResultFiles {
    static final String JOURNAL_SUFFIX = ".partial";

    private ResultFiles() {
    }

    /** The journal a run writes while it lasts: {@code <file>.partial} in the same folder. */
    public static Path journalOf(Path file) {
        return file.resolveSibling(file.getFileName() + JOURNAL_SUFFIX);
    }

    /**
     * Reads a result document.
     *
     * @throws IOException when the file is missing, is not JSON, or has a schema version this code does not know
     */
    public static ResultDocument read(Path file) throws IOException {
        ResultDocument doc;
        try {
            com.fasterxml.jackson.databind.JsonNode tree = ResultJson.READER.readTree(file.toFile());
            checkKind(file, tree);
            doc = ResultJson.READER.treeToValue(tree, ResultDocument.class);
        } catch (JsonProcessingException e) {
            throw new IOException(file + " is not a ncclbench result: " + e.getOriginalMessage(), e);
        }
        checkSchema(file, doc);
        return doc;
    }

    /**
     * A baseline, a gate decision or any other document read as a run would be judged as a run of no rows: it is
     * refused by what it says it is. A result written before "kind" existed has rows and a spec.
     */
    private static void checkKind(Path file, com.fasterxml.jackson.databind.JsonNode tree) throws IOException {
        if (tree == null || !tree.isObject()) {
            throw new IOException(file + " is not a ncclbench result (not a JSON object)");
        }
        String kind = tree.path("kind").asText("");
        if (kind.isEmpty() && tree.has("rows")) {
            return;
        }
        if (!ResultDocument.KIND.equals(kind)) {
            String what = kind.isEmpty() ? "a JSON document without \"kind\"" : kind.startsWith("ncclbench.")
                    || kind.startsWith("ncclbench-") ? "a " + kind.substring("ncclbench.".length()) + " document (kind "
                    + kind + ")" : "a document of kind " + kind;
            throw new IOException(file + " is " + what + ", not a run's result (kind " + ResultDocument.KIND
                    + "; a sweep writes one with --json)");
        }
    }

    /**
     * Why {@code journal} cannot be recovered before it is read, one line, or null when it can be tried: it is not a
     * file, or it is gone (its result file says why, when it does: a second recover, or the run finished).
     */
    public static String unrecoverable(Path journal) {
        if (!Files.exists(journal)) {
            String gone = journalGone(journal);
            return gone != null ? gone : journal + " does not exist";
        }
        return Files.isRegularFile(journal) ? null : journal + " is not a file";
    }

    /**
     * Why there is no journal at {@code journal}, as its result file tells: recovered already (a second recover), or
     * the run finished and folded it in. Null when nothing there says.
     */
    private static String journalGone(Path journal) {
        String name = journal.getFileName() == null ? "" : journal.getFileName().toString();
        if (!name.endsWith(JOURNAL_SUFFIX) || name.length() == JOURNAL_SUFFIX.length()) {
            return null;
        }
        Path file = journal.resolveSibling(name.substring(0, name.length() - JOURNAL_SUFFIX.length()));
        ResultDocument doc;
        try {
            doc = Files.isRegularFile(file) ? read(file) : null;
        } catch (IOException e) {
            return null;
        }
        if (doc == null) {
            return null;
        }
        boolean recovered = doc.error() != null && doc.error().startsWith(recoveredFrom(journal));
        int rows = doc.rows() == null ? 0 : doc.rows().size();
        return journal + " is gone: " + (recovered ? "it was already recovered into " + file
                : "its run finished, and its result is " + file) + " (status " + doc.status() + ", " + rows
                + (rows == 1 ? " row)" : " rows)");
    }

    private static String recoveredFrom(Path journal) {
        return "recovered from " + journal.getFileName() + ":";
    }

    /**
     * Turns the journal of a run that never finished into a document with status "incomplete", written
     * atomically beside it (the journal's name without ".partial"), and deletes the journal. A torn last
     * line (the crash came mid-write) is dropped. When the document already holds this run (the crash came after
     * finalising, before deleting the journal: same start, at least the journal's rows) the journal is only
     * deleted. A document of another run is never replaced without {@code force}, and the journal is deleted only
     * once its rows are in the document.
     *
     * @return what was done
     * @throws IOException when the journal is unreadable or its first line is not a run header
     * @throws dev.ncclbench.NcclbenchException (usage) when the document holds another run and not force
     */
    public static Recovered recover(Path journal, boolean force) throws IOException {
        String name = journal.getFileName().toString();
        if (!name.endsWith(JOURNAL_SUFFIX) || name.length() == JOURNAL_SUFFIX.length()) {
            throw new IOException(journal + " is not a result journal (its name does not end in " + JOURNAL_SUFFIX + ")");
        }
        Path file = journal.resolveSibling(name.substring(0, name.length() - JOURNAL_SUFFIX.length()));
        List<String> lines = Files.readAllLines(journal, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            throw new IOException(journal + " is empty: the run stopped before writing its header");
        }
        ResultDocument header;
        try {
            header = ResultJson.READER.readValue(lines.get(0), ResultDocument.class);
        } catch (JsonProcessingException e) {
            throw new IOException(journal + ": the first line is not a run header: " + e.getOriginalMessage(), e);
        }
        checkSchema(journal, header);
        List<ResultRow> rows = new ArrayList<>();
        int dropped = 0;
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            Journal.Entry entry;
            try {
                entry = ResultJson.READER.readValue(lines.get(i), Journal.Entry.class);
            } catch (JsonProcessingException e) {
                // Only the last line can be torn; anything after a bad line cannot be trusted either.
                dropped = lines.size() - i;
                break;
            }
            if (entry.row() != null) {
                rows.add(entry.row());
            } else if (entry.verdictFor() != null) {
                Journal.applyVerdict(rows, entry.verdictFor());
            }
        }
        if (Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            ResultDocument existing = null;
            try {
                existing = read(file);
            } catch (IOException e) {
                // not a result at all: another file of that name, refused below like another run
            }
            if (existing != null && java.util.Objects.equals(existing.startedAt(), header.startedAt())
                    && existing.rows() != null && existing.rows().size() >= rows.size()) {
                Files.deleteIfExists(journal);
                return new Recovered(file, existing, true);
            }
            if (!force || !Files.isRegularFile(file)) {
                throw NcclbenchException.usage("cannot recover " + journal + " into " + file + ": "
                        + file + " already holds " + (existing == null ? "something that is not a ncclbench result"
                        : "another run (started " + existing.startedAt() + ", " + existing.rows().size() + " rows)")
                        + " and the journal's run started " + header.startedAt() + " (" + rows.size() + " rows); both are"
                        + " kept: move " + file + " away and recover again"
                        + (Files.isRegularFile(file) ? ", or --force to replace it" : ""));
            }
        }
        String error = recoveredFrom(journal) + " the run stopped before finishing; "
                + rows.size() + " rows kept" + (dropped > 0 ? ", " + dropped + " unreadable lines dropped" : "");
        ResultDocument doc = header.finished(ResultDocument.INCOMPLETE, error, null, rows);
        writeAtomically(file, doc);
        Files.deleteIfExists(journal);
        return new Recovered(file, doc, false);
    }

    /**
     * What recover did.
     *
     * @param alreadyThere the file held this run already: only the journal was deleted
     */
    public record Recovered(Path file, ResultDocument doc, boolean alreadyThere) {
    }

    /** Writes {@code doc} whole or not at all (a crash never leaves half a result). */
    static void writeAtomically(Path file, ResultDocument doc) throws IOException {
        try {
            AtomicFile.write(file, (ResultJson.DOCUMENT.writeValueAsString(doc) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system of " + file.toAbsolutePath().getParent() + " cannot rename atomically; "
                    + "choose another --out folder", e);
        }
    }

    private static void checkSchema(Path file, ResultDocument doc) throws IOException {
        if (doc.schemaVersion() != ResultDocument.SCHEMA_VERSION) {
            throw new IOException(file + " has schema_version " + doc.schemaVersion() + "; this ncclbench reads "
                    + ResultDocument.SCHEMA_VERSION);
        }
    }
}
