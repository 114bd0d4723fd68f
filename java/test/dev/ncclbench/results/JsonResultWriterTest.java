package dev.ncclbench.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonResultWriterTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-01-02T03:10:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void roundTripKeepsEveryRowAndTheRun() throws IOException {
        Locale saved = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("de-DE"));
        try {
            Path file = dir.resolve("run.json");
            ResultDocument run = Fixtures.run(List.of("all_reduce", "broadcast"), 1);
            List<ResultRow> rows = new ArrayList<>(Fixtures.allReduceRows());
            rows.addAll(Fixtures.broadcastRows());
            ResultSink sink = ResultSinks.json(file, CLOCK);
            sink.beginRun(run);
            rows.forEach(sink::row);
            sink.finish("ok", null);

            ResultDocument doc = ResultFiles.read(file);
            assertEquals(1, doc.schemaVersion());
            assertEquals("ok", doc.status());
            assertEquals("2025-01-02T03:10:00Z", doc.finishedAt());
            List<ResultRow> back = doc.rows();
            int last = rows.size() - 1;
            assertEquals(rows.subList(0, last), back.subList(0, last));
            // The last row has an infinite algbw: JSON has no infinity, so it is written null and read as NaN.
            assertTrue(Double.isNaN(back.get(last).outOfPlace().algbw()));
            assertEquals(rows.get(last).inPlace(), back.get(last).inPlace());
            assertEquals(run.finished("ok", null, "2025-01-02T03:10:00Z", back), doc, "the header as begun");
            assertFalse(Files.readString(file).contains("1,5"), "no locale decimal comma");
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void fieldNamesAreTheDocumentedSnakeCaseSchema() throws IOException {
        Path file = dir.resolve("run.json");
        ResultSink sink = ResultSinks.json(file, CLOCK);
        sink.beginRun(Fixtures.run(List.of("broadcast"), 0));
        Fixtures.broadcastRows().forEach(sink::row);
        sink.finish("failed", "3 wrong elements at 1 MiB");
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        for (String f : List.of("schema_version", "tool", "tool_version", "started_at", "finished_at", "status",
                "error", "backend", "backend_reason", "spec", "versions", "nranks", "ranks", "environment",
                "nccl_log_files", "notes", "rows")) {
            assertTrue(root.has(f), "field " + f);
        }
        assertEquals("ncclbench", root.get("tool").asText());
        assertEquals("sum", root.at("/spec/op").asText());
        assertEquals("float", root.at("/spec/type").asText());
        assertEquals(134217728L, root.at("/spec/max_bytes").asLong());
        // RunSpec is written as it is: exactly the documented spec fields, in the documented order
        List<String> specFields = new ArrayList<>();
        root.get("spec").fieldNames().forEachRemaining(specFields::add);
        assertEquals(List.of("collectives", "min_bytes", "max_bytes", "max_bytes_source", "step_factor", "step_bytes",
                "iters", "warmup_iters", "agg_iters", "repeat", "check_iters", "op", "type", "root", "average", "blocking",
                "timeout_seconds", "gpus_per_thread", "threads", "cuda_graph", "per_iter_timing", "backend", "local_ranks", "json_file",
                "out_dir", "sockets_per_peer", "socket_ifname", "socket_algo", "socket_chunk", "types", "ops", "skipped",
                "nccl_tests_json", "report_cputime", "report_timestamps", "per_iter_skip", "unalign", "memory_report",
                "parallel_init", "local_register", "gpu_only_flags"), specFields);
        assertTrue(root.at("/spec/out_dir").isTextual() && !root.at("/spec/out_dir").asText().startsWith("file:"),
                "paths as plain strings: " + root.at("/spec/out_dir"));
        JsonNode row0 = root.at("/rows/0");
        assertTrue(row0.has("algorithm") && row0.get("algorithm").isNull(), "a backend that cannot say: null");
        assertTrue(row0.at("/out_of_place/wrong").isNull(), "unchecked -> null");
        assertTrue(row0.at("/verdict").isNull());
        JsonNode row3 = root.at("/rows/3");
        assertTrue(row3.at("/out_of_place/time_us").isNull(), "NaN time -> null");
        assertEquals(0, row3.at("/out_of_place/wrong").asLong());
        assertEquals("socket", row3.at("/verdict/path").asText());
        JsonNode samples = new ObjectMapper().readTree(jsonOf(Fixtures.allReduceRows().get(0))).at("/out_of_place/samples");
        for (String f : List.of("count", "min_us", "median_us", "p99_us", "max_us", "mean_us", "cv_percent")) {
            assertTrue(samples.has(f), "samples field " + f);
        }
        JsonNode kept = new ObjectMapper().readTree(jsonOf(Fixtures.allReduceRows().get(0))).at("/out_of_place/samples_us");
        assertTrue(kept.isArray() && kept.size() == 3, "the samples themselves: " + kept);
    }

    @Test
    void journalHoldsEveryRowBeforeFinish() throws IOException {
        Path file = dir.resolve("run.json");
        ResultSink sink = ResultSinks.json(file, CLOCK);
        sink.beginRun(Fixtures.run(List.of("all_reduce"), 1));
        sink.beginCollective("all_reduce");
        List<ResultRow> rows = Fixtures.allReduceRows();
        sink.row(rows.get(0));
        sink.row(rows.get(1));

        assertFalse(Files.exists(file), "no document before finish");
        List<String> lines = Files.readAllLines(ResultFiles.journalOf(file), StandardCharsets.UTF_8);
        assertEquals(3, lines.size(), "header + 2 rows");
        ObjectMapper m = new ObjectMapper();
        assertEquals("running", m.readTree(lines.get(0)).get("status").asText());
        assertEquals(8, m.readTree(lines.get(1)).at("/row/size").asLong());
        assertEquals(16, m.readTree(lines.get(2)).at("/row/size").asLong());
    }

    @Test
    void finishIsAtomicAndLeavesNoJournalOrTemporaryFile() throws IOException {
        Path file = dir.resolve("run.json");
        ResultSink sink = ResultSinks.json(file, CLOCK);
        sink.beginRun(Fixtures.run(List.of("all_reduce"), 1));
        Fixtures.allReduceRows().forEach(sink::row);
        sink.finish("ok", null);
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList());
        }
        assertThrows(IllegalStateException.class, () -> sink.row(Fixtures.allReduceRows().get(0)));
    }

    @Test
    void recoverTurnsALeftoverJournalIntoAnIncompleteDocument() throws IOException {
        Path file = dir.resolve("crashed.json");
        ResultSink sink = ResultSinks.json(file, CLOCK);
        sink.beginRun(Fixtures.run(List.of("all_reduce"), 1));
        List<ResultRow> rows = Fixtures.allReduceRows();
        for (int i = 0; i < 3; i++) {
            sink.row(rows.get(i).withVerdict(null));
        }
        sink.verdicts(List.of(rows.get(1)));
        // The process dies mid-write: a torn last line, and finish never comes.
        Path journal = ResultFiles.journalOf(file);
        Files.writeString(journal, "{\"row\":{\"collective\":\"all_re", java.nio.file.StandardOpenOption.APPEND);

        ResultFiles.Recovered recovered = ResultFiles.recover(journal, false);
        assertEquals(file, recovered.file());
        assertFalse(Files.exists(journal));
        ResultDocument doc = ResultFiles.read(file);
        assertEquals(ResultDocument.INCOMPLETE, doc.status());
        assertNull(doc.finishedAt());
        assertTrue(doc.error().contains("3 rows kept") && doc.error().contains("1 unreadable lines dropped"), doc.error());
        List<ResultRow> back = doc.rows();
        assertEquals(3, back.size());
        assertEquals(rows.get(0).withVerdict(null), back.get(0));
        assertEquals(rows.get(1), back.get(1), "the later verdict was applied");
        assertEquals("2025-01-02T03:04:05Z", doc.startedAt());
    }

    /**
     * `ncclbench recover F.partial` twice: the second says where the rows went ("is not a file", it said), exit 2
     * as for any path that is not there; and so does a journal name typed for a run that finished.
     */
    @Test
    void aSecondRecoverSaysTheJournalWasRecoveredAlready() throws IOException {
        Path file = dir.resolve("r.json");
        ResultSink sink = ResultSinks.json(file, CLOCK);
        sink.beginRun(Fixtures.run(List.of("all_reduce"), 1));
        Fixtures.allReduceRows().subList(0, 2).forEach(sink::row);
        Path journal = ResultFiles.journalOf(file);
        dev.ncclbench.CliRun first = dev.ncclbench.CliRun.cli("recover", journal.toString());
        assertEquals(0, first.code(), first.err());
        dev.ncclbench.CliRun again = dev.ncclbench.CliRun.cli("recover", journal.toString());
        assertEquals(2, again.code(), again.err());
        assertEquals("ncclbench: " + journal + " is gone: it was already recovered into " + file
                + " (status incomplete, 2 rows)\n", again.err());

        Path done = dir.resolve("done.json");
        ResultSink finished = ResultSinks.json(done, CLOCK);
        finished.beginRun(Fixtures.run(List.of("all_reduce"), 1));
        finished.row(Fixtures.allReduceRows().get(0));
        finished.finish("ok", null);
        dev.ncclbench.CliRun ok = dev.ncclbench.CliRun.cli("recover", ResultFiles.journalOf(done).toString());
        assertTrue(ok.err().contains("is gone: its run finished, and its result is " + done + " (status ok, 1 row)"),
                ok.err());
        assertTrue(dev.ncclbench.CliRun.cli("recover", dir.resolve("nothing.json.partial").toString()).err()
                .contains("nothing.json.partial does not exist"));
        Path folder = java.nio.file.Files.createDirectory(dir.resolve("folder.json.partial"));
        assertEquals("ncclbench: " + folder + " is not a file\n", dev.ncclbench.CliRun.cli("recover", folder.toString()).err());
    }

    @Test
    void recoverDeletesTheJournalOfARunAlreadyFinalised() throws IOException {
        Path file = dir.resolve("run.json");
        ResultSink sink = ResultSinks.json(file, CLOCK);
        sink.beginRun(Fixtures.run(List.of("all_reduce"), 1));
        sink.row(Fixtures.allReduceRows().get(0));
        Path journal = ResultFiles.journalOf(file);
        String left = Files.readString(journal);
        sink.finish("ok", null);
        // the crash came after the rename, before the journal's deletion
        Files.writeString(journal, left);
        ResultFiles.Recovered r = ResultFiles.recover(journal, false);
        assertTrue(r.alreadyThere());
        assertEquals("ok", ResultFiles.read(file).status());
        assertFalse(Files.exists(journal));
    }

    @Test
    void recoverKeepsBothFilesWhenTheTargetHoldsAnotherRun() throws IOException {
        Path file = dir.resolve("k.json");
        ResultSink older = ResultSinks.json(file, CLOCK);
        older.beginRun(Fixtures.run(List.of("all_reduce"), 1));
        older.row(Fixtures.allReduceRows().get(0));
        older.finish("ok", null);
        String olderText = Files.readString(file);
        Path other = dir.resolve("other.json");
        ResultSink killed = ResultSinks.json(other, CLOCK);
        killed.beginRun(Fixtures.run(List.of("all_reduce"), 1));
        Fixtures.allReduceRows().subList(0, 3).forEach(killed::row);
        Path journal = ResultFiles.journalOf(file);
        Files.move(ResultFiles.journalOf(other), journal);
        String journalText = Files.readString(journal);

        dev.ncclbench.NcclbenchException e = assertThrows(dev.ncclbench.NcclbenchException.class,
                () -> ResultFiles.recover(journal, false));
        assertEquals(dev.ncclbench.ExitCode.USAGE, e.exitCode());
        assertTrue(e.getMessage().contains(journal.toString()) && e.getMessage().contains(file + " already holds"
                + " another run"), e.getMessage());
        assertEquals(olderText, Files.readString(file), "the older run is untouched");
        assertEquals(journalText, Files.readString(journal), "the journal's rows are kept");

        ResultFiles.Recovered r = ResultFiles.recover(journal, true);
        assertEquals(3, r.doc().rows().size());
        assertEquals(3, ResultFiles.read(file).rows().size());
        assertFalse(Files.exists(journal));
    }

    @Test
    void aSecondWriterOfOneFileIsRefused() {
        Path file = dir.resolve("shared.json");
        ResultSink first = ResultSinks.json(file, CLOCK);
        first.beginRun(Fixtures.run(List.of("all_reduce"), 1));
        ResultSink second = ResultSinks.json(file, CLOCK);
        dev.ncclbench.NcclbenchException e = assertThrows(dev.ncclbench.NcclbenchException.class,
                () -> second.beginRun(Fixtures.run(List.of("all_reduce"), 1)));
        assertTrue(e.getMessage().contains("is taken"), e.getMessage());
        first.row(Fixtures.allReduceRows().get(0));
        first.finish("ok", null);
        second.finish("failed", "refused");
        assertTrue(Files.exists(file));
    }

    @Test
    void aBaselineOrGateDocumentIsNotARun() throws IOException {
        Path file = dir.resolve("b.json");
        Files.writeString(file, "{\"kind\": \"ncclbench.baseline\", \"schema_version\": 2, \"entries\": []}");
        IOException e = assertThrows(IOException.class, () -> ResultFiles.read(file));
        assertTrue(e.getMessage().contains("is a baseline document"), e.getMessage());
    }

    @Test
    void readRejectsAnotherSchemaVersion() throws IOException {
        Path file = dir.resolve("future.json");
        Files.writeString(file, "{\"schema_version\": 2, \"rows\": []}");
        IOException e = assertThrows(IOException.class, () -> ResultFiles.read(file));
        assertTrue(e.getMessage().contains("schema_version 2"), e.getMessage());
    }

    @Test
    void unknownStatusIsRejected() {
        ResultSink sink = ResultSinks.json(dir.resolve("x.json"), CLOCK);
        sink.beginRun(Fixtures.run(List.of("all_reduce"), 1));
        assertThrows(IllegalArgumentException.class, () -> sink.finish("done", null));
    }

    private static String jsonOf(ResultRow row) {
        return ResultJson.line(row);
    }
}
