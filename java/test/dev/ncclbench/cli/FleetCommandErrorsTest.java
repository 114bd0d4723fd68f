package dev.ncclbench.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** fleet's impossible requests: exit 2, one line naming what is wrong, before any network is touched. */
class FleetCommandErrorsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--survey nope              | nope     | --survey",
            "--sizes 8Q                 | 8Q       | --sizes",
            "--sizes 10                 | 10       | outside",
            "--margin 1.5               | 1.5      | --margin",
            "--margin 0                 | 0        | --margin",
            "--group-size 1             | 1        | --group-size",
            "--max-rounds 0             | 0        | --max-rounds",
            "-n 0                       | 0        | --iters",
            "--round-timeout 0          | 0        | --round-timeout",
            "-T 61                      | -T 61    | --round-timeout 61",
            "-T 20 --round-timeout 10   | -T 20    | --round-timeout 20",
            "--backend nope             | nope     | expected one of [auto, nccl, socket]",
            "--fabric nope              | nope     | unknown fabric",
            "--rank 0 --world-size 1    | two      | fleet needs two or more nodes",
            "--rank 3 --world-size 2    | 3        | outside",
            "--run-id a/b               | 'a/b'    | --run-id wants letters, digits",
    })
    void badInputIsExitTwoWithOneLine(String line, String names, String word) {
        List<String> args = new ArrayList<>(List.of("fleet"));
        args.addAll(List.of(line.trim().split("\\s+")));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
        String e = err.toString().trim();
        assertEquals(2, code, e);
        assertEquals(1, e.lines().count(), e);
        assertTrue(e.contains(names) && e.contains(word), e);
        assertFalse(e.contains("Exception"), e);
    }
}
