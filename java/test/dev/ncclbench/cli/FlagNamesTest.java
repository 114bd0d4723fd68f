package dev.ncclbench.cli;

import dev.ncclbench.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.ncclbench.CliRun.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One thing, one name (issue 52): the baseline folder is --baseline-dir, baseline record's file --file, doctor's
 * captured tree --captured, in every command's help; the old names (--dir, --out, --root) still work, hidden, and
 * the two names given two values is one line and exit 2.
 */
class FlagNamesTest {
    private static final Path HOSTS = Path.of(System.getProperty("ncclbench.basedir", "."), "java", "test-resources",
            "doctor", "hosts");

    @TempDir
    Path dir;

    @Test
    void theHelpShowsTheOneNameOnly() {
        for (List<String> c : List.of(List.of("gate"), List.of("report"), List.of("preflight"), List.of("fleet"),
                List.of("baseline", "record"), List.of("baseline", "list"), List.of("baseline", "show"))) {
            String help = help(c);
            assertTrue(help.contains("--baseline-dir=DIR"), c + ": " + help);
            assertFalse(help.contains("--dir="), c + ": " + help);
        }
        String record = help(List.of("baseline", "record"));
        assertTrue(record.contains("--file=FILE"), record);
        assertFalse(record.contains("--out="), record);
        String doctor = help(List.of("doctor"));
        assertTrue(doctor.contains("--captured=DIR"), doctor);
        assertFalse(doctor.contains("--root="), doctor);
    }

    private static String help(List<String> command) {
        List<String> args = new ArrayList<>(command);
        args.add("--help");
        CliRun r = cli(args);
        assertEquals(0, r.code(), command + ": " + r.err());
        return r.out();
    }

    @Test
    void theOldNamesStillWork() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("baselines"));
        CliRun now = cli("baseline", "list", "--baseline-dir", folder.toString());
        CliRun old = cli("baseline", "list", "--dir", folder.toString());
        assertEquals(now, old);
        assertTrue(now.out().contains(folder.toString()), now.out());

        String tree = HOSTS.resolve("a100-two-nic").toString();
        CliRun captured = cli("doctor", "--captured", tree);
        assertEquals(captured, cli("doctor", "--root", tree));
        assertFalse(captured.out().isBlank());
        CliRun both = cli("doctor", "--captured", tree, "--root", tree);
        assertEquals(2, both.code(), both.err());
    }

    @Test
    void twoNamesForTwoValuesIsOneLine() {
        CliRun r = cli("baseline", "list", "--baseline-dir", dir.resolve("a").toString(), "--dir",
                dir.resolve("b").toString());
        assertEquals(2, r.code(), r.err());
        assertEquals("ncclbench: --baseline-dir " + dir.resolve("a") + " and --dir " + dir.resolve("b") + " name two"
                + " baseline folders: give --baseline-dir once (--dir is its old name)\n", r.err());
        CliRun f = cli("baseline", "record", "--file", dir.resolve("a.json").toString(), "--out",
                dir.resolve("b.json").toString(), dir.resolve("run.json").toString());
        assertEquals(2, f.code(), f.err());
        assertTrue(f.err().contains("name two files: give --file once (--out is its old name)"), f.err());
    }
}
