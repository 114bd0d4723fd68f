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
            "-b 64M -e 1M              | 64M   | above",
            "--collective nope         | nope  | unknown collective",
            "--collective all_reduce,nope | nope | unknown collective",
            "-d nope                   | nope  | unknown data type",
            "-o nope                   | nope  | unknown reduction operator",
            "-o mulsum                 | mulsum | not supported",
            "-n 0                      | 0     | -n",
            "-w -1                     | -1    | -w",
            "-m 0                      | 0     | -m",
            "-N 0                      | 0     | -N",
            "-c -1                     | -1    | -c",
            "-a 7                      | 7     | -a",
            "-z 4                      | 4     | -z",
            "-r -5                     | -5    | -r",
            "-f -1                     | -1    | -f",
            "-T -1                     | -1    | -T",
            "--backend nope            | nope  | unknown backend",
            "--ranks 0                 | 0     | --ranks",
            "--ranks -3                | -3    | --ranks",
            "--sockets-per-peer 17     | 17    | --sockets-per-peer",
            "-b 1M -e 2M -f 1 -i 0     | -i    | advance",
            "--backend socket --ranks 2 -r 2 --collective broadcast -b 8 -e 8 | 2 | not a rank",
            "--backend socket --ranks 2 -d int8 -b 8 -e 8 | int8 | socket backend",
            "--backend socket --ranks 2 -e 4G | 4294967296 | socket backend",
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
}
