package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.Host;
import dev.ncclbench.sweep.SweepRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * NCCL_TESTS_SPLIT on four real socket ranks: each group its own mesh running the collective side by side with the
 * other, the header's "Group" column as nccl-tests prints it, every element checked (#wrong 0), the bus bandwidth
 * factor of the group's size.
 */
class NcclTestsSplitRunTest {
    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {
        List<String> rows() {
            return out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        }
    }

    private Run sweep(Map<String, String> env, String line) {
        List<String> args = new ArrayList<>(List.of("--backend", "socket", "--ranks", "4", "--no-progress",
                "--out", dir.resolve("out").toString()));
        args.addAll(NcclTestsCommandLinesTest.sweepArgs(line));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> withSplit = new HashMap<>(System.getenv());
        withSplit.remove("NCCL_TESTS_SPLIT");
        withSplit.remove("NCCL_TESTS_SPLIT_MASK");
        withSplit.putAll(env);
        SweepCommand cmd = OnHost.parsed("sweep", withSplit, args.toArray(new String[0]));
        int code = new SweepRunner(cmd.resolve(), cmd.launch(), cmd.path(), new PrintWriter(out, true),
                new PrintWriter(err, true), Host.of(withSplit)).run().code;
        return new Run(code, out.toString(), err.toString());
    }

    /** Both pairs of ranks run all_reduce at once: two rows, #wrong 0, busbw = algbw x 2(n-1)/n with n = 2 (not 4). */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = ';', value = {
            "NCCL_TESTS_SPLIT;MOD 2;0,1,0,1", "NCCL_TESTS_SPLIT;AND 0x1;0,1,0,1", "NCCL_TESTS_SPLIT;DIV 2;0,0,1,1",
            "NCCL_TESTS_SPLIT;/0b10;0,0,1,1", "NCCL_TESTS_SPLIT_MASK;2;0,0,2,2"})
    void eachGroupRunsItsOwnCollective(String variable, String value, String colors) {
        Run run = sweep(Map.of(variable, value), "all_reduce_perf -b 1K -e 64K -f 64 -n 3 -w 1 -c 1");
        assertEquals(0, run.code(), run.err() + run.out());
        String[] c = colors.split(",");
        for (int r = 0; r < 4; r++) {
            String rank = "#  Rank  " + r + " Group  " + c[r] + " Pid ";
            assertTrue(run.out().contains(rank), rank + " in\n" + run.out());
        }
        assertTrue(run.out().contains("# " + variable + "=" + value + ": 2 groups of 2 ranks, run side by side"), run.out());
        assertEquals(2, run.rows().size(), run.out());
        for (String row : run.rows()) {
            String[] f = row.trim().split("\\s+");
            // size count type redop root | time algbw busbw #wrong | time algbw busbw #wrong
            assertEquals("0", f[8], row);
            assertEquals("0", f[12], row);
            assertEquals(f[6], f[7], "all_reduce on a group of 2: busbw = algbw: " + row);
            assertEquals(f[10], f[11], row);
        }
    }

    /** all_gather's count is the group's: 64 KiB over 2 ranks, 8192 floats each (on 4 ranks it would be 4096). */
    @Test
    void countsFollowTheGroupsSize() {
        Run run = sweep(Map.of("NCCL_TESTS_SPLIT", "MOD 2"), "all_gather_perf -b 64K -e 64K -n 2 -w 1 -c 1");
        assertEquals(0, run.code(), run.err() + run.out());
        String[] f = run.rows().get(0).trim().split("\\s+");
        assertEquals("65536", f[0]);
        assertEquals("8192", f[1], run.out());
        assertEquals("0", f[8], run.out());
    }

    @Test
    void theResultRecordsTheSplitAndEachRanksGroup() throws Exception {
        Path json = dir.resolve("r.json");
        Path tests = dir.resolve("t.json");
        Run run = sweep(Map.of("NCCL_TESTS_SPLIT", "DIV 2"),
                "all_reduce_perf -b 8 -e 8 -n 1 -w 0 --json " + json + " -J " + tests);
        assertEquals(0, run.code(), run.err() + run.out());
        JsonNode doc = new ObjectMapper().readTree(json.toFile());
        assertEquals("NCCL_TESTS_SPLIT=DIV 2", doc.findValue("split").asText(), doc.toString());
        JsonNode nt = new ObjectMapper().readTree(tests.toFile());
        List<Integer> groups = new ArrayList<>();
        nt.at("/config/devices").forEach(d -> groups.add(d.get("group").asInt()));
        assertEquals(List.of(0, 0, 1, 1), groups);
    }

    /** Refused in one line before anything starts: uneven groups, and a value nccl-tests would quietly ignore. */
    @Test
    void unevenOrMalformedSplitsAreExitTwo() {
        NcclbenchException uneven = assertThrows(NcclbenchException.class,
                () -> sweep(Map.of("NCCL_TESTS_SPLIT", "DIV 3"), "all_reduce_perf -b 8 -e 8 -n 1 -w 0"));
        assertEquals(2, uneven.exitCode().code);
        assertTrue(uneven.getMessage().contains("groups of different sizes on 4 ranks"), uneven.getMessage());
        NcclbenchException bad = assertThrows(NcclbenchException.class,
                () -> sweep(Map.of("NCCL_TESTS_SPLIT", "XOR 1"), "all_reduce_perf -b 8 -e 8 -n 1 -w 0"));
        assertEquals(2, bad.exitCode().code);
    }
}
