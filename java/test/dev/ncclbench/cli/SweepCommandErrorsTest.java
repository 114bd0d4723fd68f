package dev.ncclbench.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An impossible request is exit 2 with one line that names what is wrong, never a stack trace. */
class SweepCommandErrorsTest {

    private record Result(int code, String out, String err) {
    }

    private static Result run(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
        return new Result(code, out.toString(), err.toString());
    }

    private static List<String> args(String line) {
        List<String> a = new ArrayList<>(List.of("sweep", "--no-progress", "--out",
                Path.of(System.getProperty("java.io.tmpdir"), "ncclbench-errors-test").toString()));
        a.addAll(List.of(line.trim().split("\\s+")));
        return a;
    }

    /** args | the value the one line must name | a word the line must contain */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "-b 8Q                     | 8Q    | bad size",
            "-e 1.5X                   | 1.5X  | bad size",
            "-b -8                     | -8    | bad size",
            "-b 64M -e 1M              | 67108864 | above",
            "--collective nope         | nope  | unknown collective",
            "--collective all_reduce,nope | nope | unknown collective",
            "-d nope                   | nope  | expected one of [int8, uint8",
            "-o nope                   | nope  | expected one of [sum, prod, max, min, avg, mulsum, all]",
            "-R 3                      | 3     | --local_register",
            "-K 5 -n 5                 | -K 5  | below -n",
            "--backend socket --ranks 2 -R 1 -b 8 -e 8 | -R 1 | needs a GPU",
            "--backend socket --ranks 2 -D 1 -b 8 -e 8 | -D 1 | needs a GPU",
            "--backend socket --ranks 2 -V 16 -b 8 -e 8 | -V 16 | needs a GPU",
            "--backend socket --ranks 2 -u 1 -b 8 -e 8 | -u 1 | needs a GPU",
            "--backend socket --ranks 2 -M 1 -b 8 -e 8 | -M 1 | needs a GPU",
            "--backend socket --ranks 2 -y 1 -b 8 -e 8 | -y 1 | needs a GPU",
            "--backend socket --ranks 2 -p 1 -b 8 -e 8 | -p 1 | needs a GPU",
            "--backend socket --ranks 2 -x 1 -b 8 -e 8 | -x 1 | needs a GPU",
            "-q 1                      | -q    | nccl-tests v2.19.6 has no such flag either",
            "-n 0                      | 0     | --iters",
            "-w -1                     | -1    | -w",
            "-m 0                      | 0     | --agg_iters",
            "-N 0                      | 0     | --run_cycles",
            "-c -1                     | -1    | -c",
            "-a 7                      | 7     | -a",
            "-z 4                      | 4     | --blocking",
            "-r -5                     | -5    | -r",
            "-f -1                     | -1    | --stepfactor",
            "-f 0                      | 0     | -f 1 adds -i",
            "-e 0                      | -e 0  | 1 byte or more",
            "-e 4K                     | -e 4 KiB given alone | -b 8 -e 4K -f 2",
            "-b 1G                     | -b 1 GiB given alone | -b 1G -e 1G",
            "-b 0 -e 1M -f 4           | -b 0 with -f 4 | never grows",
            "-T -1                     | -1    | --timeout",
            "--backend nope            | nope  | expected one of [auto, nccl, socket]",
            "--ranks 0                 | 0     | --ranks",
            "--ranks -3                | -3    | --ranks",
            "--sockets-per-peer 17     | 17    | --sockets-per-peer",
            "--socket-algo tree        | tree  | expected one of [auto, ring, rd, rabenseifner]",
            "--cpu-bind socket         | socket | expected one of [core, none]",
            "--socket-chunk 100        | 100   | --socket-chunk",
            "--socket-chunk 1G         | 1G    | --socket-chunk",
            "--socket-chunk 4Q         | 4Q    | bad size",
            "--backend nccl --socket-algo ring -b 8 -e 8 | --socket-algo ring | socket backend",
            "--backend nccl --socket-chunk 64K -b 8 -e 8 | --socket-chunk 65536 | socket backend",
            "-b 1M -e 2M -f 1 -i 0     | -i    | advance",
            "--backend socket --ranks 2 -r 2 --collective broadcast -b 8 -e 8 | 2 | not a rank",
            "--backend socket --ranks 2 -d int8 -b 8 -e 8 | int8 | socket backend",
            "--backend socket --ranks 2 -g 2 -b 8 -e 8 | -g 2 | nccl backend",
            "--backend socket --ranks 2 -t 2 -b 8 -e 8 | -t 2 | socket backend",
            "--backend socket --ranks 2 -G 5 -b 8 -e 8 | -G 5 | nccl backend",
            "--ranks 100000            | 100000 | processes",
            "--backend socket --ranks 2 --rendezvous foo -b 8 -e 8 | foo | HOST:PORT",
            "--backend socket --ranks 2 --rendezvous host:70000 -b 8 -e 8 | 70000 | port",
    })
    void exitTwoWithOneLineNamingTheValue(String line, String value, String word) {
        Result r = run(args(line));
        assertEquals(2, r.code(), "exit code for '" + line + "'; err: " + r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), "exactly one line on err for '" + line + "':\n" + r.err());
        String msg = lines.get(0);
        assertTrue(msg.startsWith("ncclbench: "), msg);
        assertTrue(msg.contains(value), "names '" + value + "': " + msg);
        assertTrue(msg.contains(word), "says '" + word + "': " + msg);
        assertFalse(msg.contains("Exception"), msg);
        assertFalse(msg.contains("at dev."), msg);
        assertFalse(r.out().contains("Avg bus bandwidth"), "nothing ran: " + r.out());
    }

    /** picocli's own parse errors (not a number, unknown option): one line naming the value and the help, exit 2. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "-n abc    | abc",
            "--bogus   | --bogus",
            "-r x      | x",
    })
    void parseErrorsAreExitTwoWithoutAStackTrace(String line, String value) {
        Result r = run(args(line));
        assertEquals(2, r.code(), r.err());
        List<String> lines = r.err().lines().toList();
        assertTrue(lines.get(0).startsWith("ncclbench: ") && lines.get(0).contains(value), r.err());
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.get(0).contains("--help"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(r.err().contains("at dev."), r.err());
    }

    /** Output paths are checked before anything runs, and nothing is written beside a path nobody named. */
    @org.junit.jupiter.api.Test
    void badOutputPathsAreRefusedBeforeAnythingRuns(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path aFile = java.nio.file.Files.writeString(dir.resolve("plain"), "x");
        Path missing = dir.resolve("nonexistent").resolve("dir").resolve("x.json");
        Object[][] cases = {
                {"", "empty"},
                {dir.toString(), "is a folder"},
                {missing.toString(), "does not exist"},
                {aFile.resolve("x.json").toString(), "does not exist"},
        };
        List<Object[]> all = new ArrayList<>(List.of(cases));
        if (java.nio.file.Files.exists(Path.of("/dev/full"))) {
            all.add(new Object[] {"/dev/full", "not a regular file"});
        }
        for (Object[] c : all) {
            String json = (String) c[0];
            List<String> a = new ArrayList<>(List.of("sweep", "--no-progress", "--backend", "socket", "--ranks", "2",
                    "-b", "8", "-e", "8", "--out", dir.resolve("out").toString(), "--json", json));
            Result r = run(a);
            assertEquals(2, r.code(), "--json '" + json + "': " + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().contains((String) c[1]), "--json '" + json + "': " + r.err());
            assertFalse(r.out().contains("Collective test"), "nothing ran: " + r.out());
        }
        assertFalse(java.nio.file.Files.exists(dir.resolve("nonexistent")), "no parent created outside --out");
        assertFalse(java.nio.file.Files.exists(Path.of(dir + ".partial")), "nothing beside the named folder");
        assertFalse(java.nio.file.Files.exists(dir.resolve("out")), "no empty run folder when --json points elsewhere");
        if (java.nio.file.Files.exists(Path.of("/dev/full"))) {
            assertFalse(java.nio.file.Files.isRegularFile(Path.of("/dev/full")), "the device node is untouched");
        }
        Result bad = run(List.of("sweep", "--no-progress", "--backend", "socket", "--ranks", "2", "-b", "8", "-e", "8",
                "--out", aFile.toString()));
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("is not a folder"), bad.err());
    }

    /** A run with --json elsewhere: the result is 0644 and no run folder is left under --out. */
    @org.junit.jupiter.api.Test
    void aResultIsReadableByTheGroupAndLeavesNoEmptyRunFolder(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path json = dir.resolve("r.json");
        Result r = run(List.of("sweep", "--no-progress", "--backend", "socket", "--ranks", "2", "-b", "8", "-e", "8",
                "-n", "1", "--out", dir.resolve("out").toString(), "--json", json.toString()));
        assertEquals(0, r.code(), r.err());
        assertEquals("rw-r--r--", java.nio.file.attribute.PosixFilePermissions.toString(
                java.nio.file.Files.getPosixFilePermissions(json)));
        assertFalse(java.nio.file.Files.exists(dir.resolve("out")), "no empty run folder");
    }
}
