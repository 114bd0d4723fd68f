package dev.ncclbench.gpuruns;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ncclbench.CliRun;
import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.gate.GateJudge;
import dev.ncclbench.gate.GateOptions;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.preflight.Preflight;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultInput;
import dev.ncclbench.results.ResultSink;
import dev.ncclbench.results.ResultSinks;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static dev.ncclbench.CliRun.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the nccl backend wrote on a real H200 (../shared/gpu-runs/h200-2026-12-04, read in place, never copied or
 * edited) goes through every command after the sweep on a machine without a GPU: baseline, gate, report, preflight's
 * judgement, explain, and nccl-tests' -J file keeps the writer's shape. These files carry no per-iteration samples
 * (all but the -I 1 runs), a sentence for versions, one rank: the cases the socket backend never produced.
 */
class H200RunsTest {
    static final Path DIR = Path.of(System.getProperty("ncclbench.basedir", "."), "..", "shared", "gpu-runs",
            "h200-2026-12-04").normalize();
    static final Path RUNS = DIR.resolve("runs");
    /** -b 8 -e 8G -f 2 -N 3, no -I: no samples. */
    static final Path PLAIN = RUNS.resolve("20261204-173618-nccl-657/result.json");
    /** sweep with no flags (auto chose nccl), 8 B to 8 GiB. */
    static final Path DEFAULT = RUNS.resolve("20261204-173716-nccl-1350/result.json");
    /** -b 1G -e 8G -f 8 -n 5 -I 1: samples, one rank. */
    static final Path PER_ITER = RUNS.resolve("20261204-173629-nccl-897/result.json");
    static final Path PREFLIGHT = RUNS.resolve("preflight-20261204-174300-2421/result.json");
    /** -b 8 -e 64M -f 8 -I 1 -N 2 -J: nccl-tests' JSON beside ours. */
    static final Path WITH_J = RUNS.resolve("20261204-174457-nccl-1521");

    @TempDir
    Path tmp;

    @BeforeAll
    static void present() {
        assumeTrue(Files.isDirectory(RUNS), "no real GPU runs at " + RUNS + " (../shared is laid beside the checkout)");
    }

    private static String last(String out) {
        return out.lines().reduce((a, b) -> b).orElse("");
    }

    @Test
    void aPlainGpuSweepIsBaselinedAndGatedByToleranceAndSaysSo() {
        Path b = tmp.resolve("h200.baseline.json");
        CliRun rec = cli("baseline", "record", PLAIN.toString(), "--name", "h200", "--out", b.toString());
        assertEquals(0, rec.code(), rec.out() + rec.err());
        CliRun g = cli("gate", "--baseline", b.toString(), DEFAULT.toString());
        assertEquals(0, g.code(), g.out() + g.err());
        // 512 B took 15% longer, inside the -N 3 baseline's run-to-run spread of 17%: too noisy to judge, and said
        assertTrue(last(g.out()).startsWith("PASS: 31 sizes compared with baseline h200, each placement on its own; 1 row"
                + " too noisy to judge (worse beyond the tolerance, inside the noise): all_reduce 512 B latency +15.0%"
                + " (noise ±17.2%)"), g.out());
        assertTrue(g.out().contains("# judged on the table's time (mean of the timed loop): no per-iteration samples"),
                g.out());
        assertTrue(g.out().contains("(tolerance only)"), g.out());
        // one rank in place moves no data: shown, never failed on
        assertTrue(g.out().contains("not judged (in place on one rank: no data moves)"), g.out());
        assertFalse(g.out().contains("# curve"), g.out());
    }

    @Test
    void aRunWithSamplesIsJudgedPerPlacementOnTheirMedian() throws IOException {
        Path b = tmp.resolve("iter.baseline.json");
        assertEquals(0, cli("baseline", "record", PER_ITER.toString(), "--name", "iter", "--out", b.toString()).code());
        CliRun g = cli("gate", "--baseline", b.toString(), "--json", "-", PER_ITER.toString());
        assertEquals(0, g.code(), g.out() + g.err());
        JsonNode doc = new ObjectMapper().readTree(g.out());
        int in = 0;
        for (JsonNode s : doc.get("sizes")) {
            boolean inPlace = s.get("placement").asText().equals("in-place");
            assertTrue(s.get("statistic").asText().startsWith("median of the per-iteration samples"), s.toString());
            assertTrue(s.get("run_table_us").asDouble() > 0, s.toString());
            if (inPlace) {
                in++;
                assertEquals("host_only", s.get("status").asText(), s.toString());
            } else {
                // 1 GiB out of place: the copy's ~560 us, never pooled with in place's ~6 us of host time
                assertTrue(s.at("/statistics/run_median_us").asDouble() > 100, s.toString());
            }
        }
        assertEquals(2, in);
    }

    @Test
    void aOneRankReportPlotsAlgbwAgainstTheCopyLimit() throws IOException {
        for (Path run : List.of(PER_ITER, PLAIN)) {
            Path html = tmp.resolve(run.getParent().getFileName() + ".html");
            Path png = tmp.resolve(run.getParent().getFileName() + ".png");
            CliRun r = cli("report", "--dir", tmp.resolve("none").toString(), "--html", html.toString(), "--png",
                    png.toString(), run.toString());
            assertEquals(0, r.code(), r.out() + r.err());
            String h = Files.readString(html);
            assertTrue(h.contains("id=\"one-rank\""), "one rank is said");
            assertTrue(h.contains("copy limit, 2400 GB/s (H200 datasheet"), "the model's copy limit");
            assertTrue(h.contains("the plot shows algbw (size / time)"), "an algbw plot, not a busbw plot of zeros");
            assertEquals(2, h.split("<svg", -1).length - 1, "algbw and time, each a plot");
            assertTrue(Files.size(png) > 10_000, "a PNG with two plots");
        }
    }

    @Test
    void noCurveWarningOnAnyHealthyH200Run() throws IOException {
        try (Stream<Path> s = Files.walk(RUNS, 2)) {
            for (Path run : s.filter(p -> p.getFileName().toString().equals("result.json")).sorted().toList()) {
                CliRun g = cli("gate", "--curve-only", run.toString());
                assertEquals(0, g.code(), run + ": " + g.out() + g.err());
                assertFalse(g.out().contains("# curve"), run + ": " + g.out());
            }
        }
    }

    /** The real H200 run with no baseline anywhere is not a PASS (issue 50): NO_BASELINE, exit 7, in every format. */
    @Test
    void aGateWithNoBaselineToCompareIsNeverAPass() throws IOException {
        Path none = tmp.resolve("none");
        CliRun g = cli("gate", "--dir", none.toString(), DEFAULT.toString());
        assertEquals(7, g.code(), g.out() + g.err());
        assertFalse(g.out().lines().anyMatch(l -> l.startsWith("PASS")), g.out());
        assertTrue(last(g.out()).startsWith("NO_BASELINE: nothing compared: " + none + " does not exist (this run: nccl,"
                + " 1 node, 1 rank, 1x NVIDIA H200"), g.out());
        Path junit = tmp.resolve("gate.xml");
        CliRun j = cli("gate", "--dir", none.toString(), "--json", "-", "--junit", junit.toString(), DEFAULT.toString());
        assertEquals(7, j.code(), j.err());
        assertEquals("NO_BASELINE", new ObjectMapper().readTree(j.out()).get("verdict").asText());
        String xml = Files.readString(junit);
        assertTrue(xml.contains("<testcase classname=\"ncclbench.gate\" name=\"baseline\"") && xml.contains("<skipped"),
                xml);
    }

    @Test
    void preflightsJudgementPassesTheHealthyRuns() {
        GateJudge judge = new GateJudge(tmp.resolve("none"), GateOptions.defaults(), null, null, null, Set.of(), null, null);
        for (Path run : List.of(PREFLIGHT, DEFAULT)) {
            GateReport r = judge.judge(run.toString(), ResultInput.read(run), null);
            Preflight.Verdict v = Preflight.decide(List.of(), new Preflight.Sweep(0, null), Preflight.GateStep.of(r));
            assertEquals("PASS", v.word(), run + ": " + v.line());
        }
    }

    @Test
    void anOlderResultsVersionSentenceIsSplitIntoFields() {
        Fingerprint fp = Fingerprint.of(ResultInput.read(PLAIN), null);
        assertEquals("2.28.9", fp.versions().get("nccl"), fp.versions().toString());
        assertFalse(fp.versions().values().stream().anyMatch(v -> v.contains("/")), "no library path in the key");
    }

    @Test
    void explainReadsEachRunFolderOnItsOwn() {
        CliRun e = cli("explain", RUNS.toString());
        assertEquals(0, e.code(), e.out() + e.err());
        assertTrue(e.out().contains("13 run folder(s)") && e.out().contains("12 healthy, 1 no NCCL log"), e.out());
        // The preflight folder holds only result.json: it is named, never counted as healthy.
        assertTrue(e.out().lines().anyMatch(l -> l.startsWith("preflight-") && l.contains("no NCCL log")), e.out());
    }

    /** nccl-tests' -J file of the H200 run has, key for key and level for level, the shape our writer writes. */
    @Test
    void theMinusJFileHasTheWritersShape() throws IOException {
        ObjectMapper m = new ObjectMapper();
        JsonNode real = m.readTree(WITH_J.resolve("nccl-tests-J.json").toFile());
        ResultDocument doc = ResultInput.read(WITH_J.resolve("result.json"));
        Path file = tmp.resolve("again.json");
        ResultSink w = ResultSinks.ncclTestsJson(file, new PrintWriter(new StringWriter()));
        w.beginRun(doc);
        w.beginCollective("all_reduce");
        doc.rows().forEach(w::row);
        w.endCollective("all_reduce");
        w.finish("ok", null);
        JsonNode again = m.readTree(file.toFile());
        assertEquals(paths(real, ""), paths(again, ""));
        assertEquals(List.of("version", "start_time", "args", "env", "nccl_version", "config", "results", "out_of_bounds",
                "average_bus_bandwidth", "errors", "end_time"), keys(real));
        assertEquals(real.get("results").size(), again.get("results").size());
        assertEquals("NVIDIA H200", again.at("/config/devices/0/device_info").asText(), "the device's name alone");
    }

    private static List<String> keys(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** Every object key path, arrays collapsed to [] (their lengths are the data's). */
    private static Set<String> paths(JsonNode n, String at) {
        Set<String> out = new TreeSet<>();
        if (n.isObject()) {
            Iterator<String> it = n.fieldNames();
            while (it.hasNext()) {
                String k = it.next();
                out.add(at + "/" + k);
                out.addAll(paths(n.get(k), at + "/" + k));
            }
        } else if (n.isArray()) {
            n.forEach(e -> out.addAll(paths(e, at + "[]")));
        }
        return out;
    }
}
