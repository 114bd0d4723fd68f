package dev.ncclbench.sweep;

import dev.ncclbench.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sweep's header reads in a terminal: its notes (the code warm-up's was 731 characters on one line, the socket
 * all_reduce's 418) wrap to the width of the table's rows, each line still starting with '#' as nccl-tests' parsers
 * want; the result's JSON keeps each note whole.
 */
class HeaderLinesTest {
    @TempDir
    Path dir;

    @Test
    void aSocketSweepsHeaderLinesAreNoWiderThanItsRows() throws Exception {
        Path json = dir.resolve("r.json");
        CliRun r = CliRun.cli("sweep", "--no-progress", "--backend", "socket", "--ranks", "2", "-b", "8", "-e", "8", "-n", "1",
                "-w", "0", "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        int rowWidth = lines.stream().filter(l -> !l.startsWith("#") && !l.isBlank()).mapToInt(String::length).max().orElse(0);
        assertTrue(rowWidth > 100, "a row: " + r.out());
        for (String line : lines) {
            // nccl-tests' own "# nThread" line and our one-line version line are as they are
            if (!line.startsWith("# nThread") && !line.startsWith("# ncclbench version")) {
                assertTrue(line.length() <= rowWidth + 1, line.length() + " characters: " + line);
            }
            assertTrue(line.isEmpty() || line.startsWith("#") || Character.isWhitespace(line.charAt(0)), line);
        }
        String whole = CliRun.unwrapped(r.out());
        assertTrue(whole.contains("# " + CodeWarmup.note() + "\n"), "joined again, the note is whole: " + whole);
        List<String> notes = dev.ncclbench.results.ResultFiles.read(json).notes();
        assertTrue(notes.contains(CodeWarmup.note()), "the JSON keeps it on one line: " + notes);
    }
}
