package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.BackendChecks;
import dev.ncclbench.backend.Backends;
import dev.ncclbench.spec.RunSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * nccl-tests command lines as users run them (nccl-tests' README, NVIDIA's and cloud providers' guides): each parses
 * with nccl-tests' meanings, and the socket backend takes it or refuses it with the one line "nccl-tests flag X needs a
 * GPU". A few run for real on two socket ranks, with -I 1 and -J, and -d all / -o all / -o mulsum.
 */
class NcclTestsCommandLinesTest {
    @TempDir
    Path dir;

    /** "all_reduce_perf -b 8 ..." as the arguments of `ncclbench sweep --collective all_reduce -b 8 ...`. */
    static List<String> sweepArgs(String line) {
        List<String> words = new ArrayList<>(Arrays.asList(line.trim().split("\\s+")));
        String binary = words.remove(0);
        List<String> out = new ArrayList<>(List.of("--collective", binary.replace("_perf", "")));
        out.addAll(words);
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "all_reduce_perf -b 8 -e 128M -f 2 -g 8",
            "all_reduce_perf -b 8 -e 8G -f 2 -g 1",
            "all_reduce_perf -b 8 -e 16G -f 2 -g 8",
            "all_reduce_perf -b 8 -e 1G -f 2 -g 1 -c 1 -n 100",
            "all_reduce_perf -b 8 -f 2 -g 1 -e 4G",
            "all_gather_perf -b 8M -e 8G -f 2 -g 1 -w 5 --iters 200 -c 0",
            "all_reduce_perf -b 512M -e 8G -f 2 -g 1",
            "alltoall_perf -b 1M -e 1G -f 2 -g 1",
            "sendrecv_perf -b 8 -e 128M -f 2 -g 1 -z 1",
            "reduce_scatter_perf -b 8 -e 128M -f 2 -g 1 -d bfloat16",
            "all_reduce_perf -b 8 -e 128M -f 2 -d all -o all",
            "all_reduce_perf -b 8 -e 128M -f 2 -o mulsum",
            "broadcast_perf -b 8 -e 128M -f 2 -r -1",
            "all_reduce_perf -b 8 -e 8G -f 2 -I 1 -K 1 -J perf.json",
            "all_reduce_perf -b 8 -e 8G -f 2 -R 2",
            "all_reduce_perf -b 8 -e 8G -f 2 -R 1 -g 1",
            "all_reduce_perf -b 8 -e 8G -f 2 -G 20",
            "all_reduce_perf -b 8 -e 8G -f 2 -t 8 -g 1",
            "all_reduce_perf -b 8 -e 1G -f 2 -a 3 -T 60 -C 1 -S 1 -N 2",
            "all_reduce_perf -b 8 -e 1G -f 2 -m 4 -z 2 -w 10 -n 50",
            "all_reduce_perf -b 8 -e 1G -f 2 -p 1 -t 8",
            "all_reduce_perf -b 8 -e 1G -f 2 -R 2 -D 1 -V 32",
            "all_reduce_perf -b 8 -e 1G -f 2 -M 1 -u 1 -y 0 -x 0",
            "all_reduce_perf --minbytes 8 --maxbytes 1G --stepfactor 2 --ngpus 1 --check 1 --report_timestamps 1"
                    + " --report_cputime 0 --output_file out.json --per_iter_timing 1 --per_iter_skip 2 --average 1",
    })
    void parsesWithNcclTestsMeaningsAndTheSocketBackendTakesItOrSaysItNeedsAGpu(String line) {
        SweepCommand cmd = OnHost.parsed("sweep", Map.of(), sweepArgs(line).toArray(new String[0]));
        RunSpec spec = cmd.resolve();
        try {
            BackendChecks.refuseIdleFlags(Backends.byName("socket"), spec);
        } catch (NcclbenchException refused) {
            assertEquals(2, refused.exitCode().code);
            assertTrue(refused.getMessage().startsWith("nccl-tests flag -") && refused.getMessage().contains(" needs a GPU"),
                    refused.getMessage());
        }
    }

    private int run(String line, StringWriter out, StringWriter err) {
        List<String> args = new ArrayList<>(List.of("sweep", "--backend", "socket", "--ranks", "2", "--no-progress",
                "--out", dir.resolve("out").toString()));
        args.addAll(sweepArgs(line));
        return Main.run(args.toArray(new String[0]), new PrintWriter(out), new PrintWriter(err));
    }

    /** -I 1 -K 1 -J: the i_* columns, and nccl-tests' JSON with one process row per rank (analyze_perf_json.py). */
    @Test
    void perIterationRunWritesNcclTestsJson() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path json = dir.resolve("perf.json");
        int code = run("all_reduce_perf -b 8 -e 32 -f 4 -n 4 -w 1 -I 1 -K 1 -J " + json, out, err);
        assertEquals(0, code, err.toString());
        assertTrue(out.toString().startsWith("# Writing JSON output to " + json + "\n"), out.toString());
        assertTrue(out.toString().contains("    i_min    i_max    i_p99    i_cv%"), out.toString());
        JsonNode doc = new ObjectMapper().readTree(json.toFile());
        assertEquals(3, doc.get("version").asInt());
        assertEquals(2, doc.get("results").size(), "8 and 32 B");
        assertEquals(2, doc.at("/config/devices").size());
        for (JsonNode r : doc.get("results")) {
            for (String key : List.of("out_of_place_per_iter", "in_place_per_iter")) {
                JsonNode p = r.get(key);
                assertEquals(1, p.get("skipped_iterations").asInt());
                assertEquals(4, p.get("times_us").size());
                assertEquals(2, p.get("per_process_max_times_us").size(), "a row per rank");
                for (int i = 0; i < 4; i++) {
                    double max = Math.max(p.at("/per_process_max_times_us/0/" + i).asDouble(),
                            p.at("/per_process_max_times_us/1/" + i).asDouble());
                    assertEquals(max, p.at("/times_us/" + i).asDouble(), 0.0, "each iteration the slowest rank's");
                }
            }
        }
    }

    /** -d all -o all: exit 0, every pair the socket backend reduces, and one line naming what it skipped. */
    @Test
    void everyTypeAndOpRunsWhatTheBackendHasAndNamesTheRest() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, run("all_reduce_perf -b 8 -e 8 -n 1 -w 0 -d all -o all", out, err), err.toString());
        List<String> rows = out.toString().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        assertEquals(4 * 5, rows.size(), "int32, int64, float, double x sum, prod, max, min, avg: " + out);
        assertTrue(rows.get(0).contains("int32     sum") && rows.get(19).contains("double     avg"), rows.toString());
        List<String> skip = dev.ncclbench.CliRun.unwrapped(out.toString()).lines()
                .filter(l -> l.startsWith("# -d all, -o all: the socket backend skips"))
                .toList();
        assertEquals(1, skip.size(), out.toString());
        assertTrue(skip.get(0).contains("half") && skip.get(0).contains("mulsum"), skip.get(0));
    }

    @Test
    void mulsumAloneRunsNothingAndSaysSo() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, run("all_reduce_perf -b 8 -e 8 -n 1 -w 0 -o mulsum", out, err), err.toString());
        assertTrue(out.toString().contains("# -o mulsum: the socket backend skips"), out.toString());
        assertEquals(0, out.toString().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).count(), out.toString());
    }
}
