package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ncclbench.CliRun;
import dev.ncclbench.SlowedRuns;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static dev.ncclbench.CliRun.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * baseline record/list/show and gate on a real socket run (two ranks over loopback). The slow run is that run's
 * own file with every per-iteration sample made ten times slower (this VM's loopback runs
 * scatter by 2x, so only a large known change is certain to show): a known regression, so the outputs can be checked
 * exactly; the real shaped-link regression is GateVethTest's.
 */
class GateCommandTest {
    @TempDir
    static Path dir;
    static Path run;
    static Path slow;
    static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void oneRealRun() throws Exception {
        run = dir.resolve("run.json");
        CliRun r = cli("sweep", "--backend", "socket", "--ranks", "2", "-b", "1K", "-e", "4M", "-f", "16", "-n", "10",
                "--no-progress", "--json", run.toString(), "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        // each placement's samples become their median: a real run's figures, without the spread a loaded machine puts
        // in them (a 4 MiB line at ±200% on a busy 2-core VM hid even a tenfold slowdown). What is judged here is
        // what the gate writes, not how it weighs noise (SampleComparisonTest does that)
        ObjectNode doc = (ObjectNode) JSON.readTree(run.toFile());
        SlowedRuns.scaleSamples(doc, 1);
        JSON.writeValue(run.toFile(), doc);
        SlowedRuns.scaleSamples(doc, 10);
        slow = dir.resolve("slow.json");
        JSON.writeValue(slow.toFile(), doc);
    }

    Path baselines(String name, Path... runs) {
        Path b = dir.resolve("bl-" + name);
        List<String> args = new ArrayList<>(List.of("baseline", "record", "--dir", b.toString(), "--name", name));
        for (Path p : runs) {
            args.add(p.toString());
        }
        CliRun r = cli(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("baseline " + name + ": " + runs.length + " run"), r.out());
        return b;
    }

    @Test
    void theSameRunPassesAgainstItsOwnBaseline() {
        Path b = baselines("same", run);
        CliRun g = cli("gate", "--dir", b.toString(), run.toString());
        assertEquals(0, g.code(), g.out() + g.err());
        assertTrue(g.out().contains("PASS"), g.out());
        assertTrue(g.out().contains("same fingerprint"), g.out());
    }

    @Test
    void aTenfoldSlowdownFailsWithEveryOutput() throws Exception {
        Path b = baselines("twice", run, run);
        Files.createDirectories(dir.resolve("out"));
        Path junit = dir.resolve("out/gate.xml");
        Path md = dir.resolve("out/gate.md");
        Path prom = dir.resolve("out/gate.prom");
        CliRun g = cli("gate", "--dir", b.toString(), "--junit", junit.toString(), "--markdown", md.toString(),
                "--prometheus", prom.toString(), slow.toString());
        assertEquals(6, g.code(), g.out() + g.err());
        String verdict = g.out().lines().reduce((a, c) -> c).orElse("");
        assertTrue(verdict.startsWith("REGRESSION: all_reduce "), verdict);
        assertTrue(verdict.contains("all_reduce 4 MiB busbw -90.0%"), verdict);

        Document x = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile());
        NodeList cases = x.getElementsByTagName("testcase");
        assertEquals(8, cases.getLength()); // -f 16: 1K 16K 256K 4M, each placement on its own
        int failures = x.getElementsByTagName("failure").getLength();
        assertEquals(Integer.parseInt(((Element) x.getElementsByTagName("testsuite").item(0)).getAttribute("failures")),
                failures);
        assertEquals(cases.getLength(), failures, "every line is ten times slower");
        Element last = (Element) cases.item(cases.getLength() - 1);
        assertEquals("all_reduce 4 MiB in-place", last.getAttribute("name"));
        assertEquals(1, last.getElementsByTagName("failure").getLength());

        String m = Files.readString(md, StandardCharsets.UTF_8);
        assertTrue(m.startsWith("## ncclbench gate: REGRESSION"), m);
        assertTrue(m.contains("| all_reduce | 4 MiB | out-of-place | busbw |"), m);
        assertTrue(m.contains("**regression**"), m);

        String p = Files.readString(prom, StandardCharsets.UTF_8);
        Pattern sample = Pattern.compile("[a-z_]+(\\{[a-z_]+=\"[^\"]*\"(,[a-z_]+=\"[^\"]*\")*\\})? -?[0-9.e+-]+");
        for (String line : p.lines().toList()) {
            assertTrue(line.startsWith("# HELP ") || line.startsWith("# TYPE ") || sample.matcher(line).matches(), line);
        }
        assertTrue(p.contains("ncclbench_busbw_gbps{collective=\"all_reduce\",size=\"4194304\",type=\"float\",root=\"-1\",placement=\"out-of-place\"}"), p);
        assertTrue(p.contains("ncclbench_gate_verdict{verdict=\"regression\",baseline=\"twice\"} 1"), p);
        assertTrue(Pattern.compile("ncclbench_gate_size_failed\\{collective=\"all_reduce\",size=\"4194304\",[^}]*\\} 1")
                .matcher(p).find(), p);
        assertTrue(p.contains("ncclbench_gate_timestamp_seconds "), p);

        CliRun j = cli("gate", "--dir", b.toString(), "--json", "-", slow.toString());
        JsonNode tree = JSON.readTree(j.out());
        assertEquals("REGRESSION", tree.get("verdict").asText());
        assertEquals(6, tree.get("exit_code").asInt());
        assertEquals(2, tree.get("baseline_runs").asInt());
    }

    /**
     * --json FILE as sweep's and fleet's (issue 50: "--json FILE" was "Unmatched argument"); '-' is standard output;
     * an existing JSON file is replaced as --junit's is (one that is not JSON is refused: JsonOutputTest), and no output
     * may name an input or another output.
     */
    @Test
    void jsonTakesAFileOrDashAndNeverReplacesAnInput() throws Exception {
        Path b = baselines("files", run, run);
        Path decision = dir.resolve("decision.json");
        Files.writeString(decision, "{\"verdict\": \"an earlier gate's\"}\n");
        CliRun g = cli("gate", "--dir", b.toString(), "--json", decision.toString(), slow.toString());
        assertEquals(6, g.code(), g.out() + g.err());
        assertTrue(g.out().lines().reduce((x, y) -> y).orElse("").startsWith("REGRESSION: "), "the text on stdout");
        assertEquals("REGRESSION", JSON.readTree(decision.toFile()).get("verdict").asText());

        String before = Files.readString(slow);
        String baselineBefore = Files.readString(b.resolve("files.baseline.json"));
        for (String[] c : new String[][]{
                {"--json", slow.toString(), "--json " + slow + " is the run's result, which this command reads"},
                {"--junit", b.resolve("files.baseline.json").toString(), "is the baseline, which this command reads"},
                {"--markdown", decision.toString(), "--markdown and --json name the same file, " + decision}}) {
            List<String> args = new ArrayList<>(List.of("gate", "--dir", b.toString(), "--baseline", "files", "--json",
                    decision.toString(), c[0], c[1], slow.toString()));
            if (c[0].equals("--json")) {
                args.subList(5, 7).clear(); // the one --json of this case is the run itself
            }
            CliRun r = cli(args.toArray(String[]::new));
            assertEquals(2, r.code(), c[0] + ": " + r.out() + r.err());
            assertTrue(r.err().contains(c[2]), r.err());
            assertEquals("", r.out(), "refused before anything is judged");
        }
        assertEquals(before, Files.readString(slow), "the run is as it was");
        assertEquals(baselineBefore, Files.readString(b.resolve("files.baseline.json")), "the baseline is as it was");
    }

    @Test
    void oneRunBaselinesDoNotJudgeLatency() {
        Path b = baselines("one", run);
        CliRun g = cli("gate", "--dir", b.toString(), slow.toString());
        assertEquals(6, g.code(), g.out());
        assertTrue(g.out().contains("not judged (one-run baseline)"), g.out());
        assertTrue(g.out().lines().reduce((a, c) -> c).orElse("").startsWith("REGRESSION: all_reduce 4 MiB busbw"),
                g.out());
    }

    @Test
    void listAndShowNameTheBaseline() {
        Path b = baselines("listed", run);
        CliRun l = cli("baseline", "list", "--dir", b.toString());
        assertEquals(0, l.code());
        assertTrue(l.out().contains("listed") && l.out().contains("socket, 1 node, 2 ranks, lo"), l.out());
        CliRun s = cli("baseline", "show", "--dir", b.toString(), "listed");
        assertEquals(0, s.code(), s.err());
        assertTrue(s.out().contains("all_reduce") && s.out().contains("4 MiB"), s.out());
        // each size twice, one row per placement: the rows say which (issue 50)
        List<String> rows = s.out().lines().filter(x -> x.startsWith("all_reduce") && x.contains(" 4 MiB ")).toList();
        assertEquals(2, rows.size(), s.out());
        assertTrue(rows.get(0).contains(" 4 MiB oop ") && rows.get(1).contains(" 4 MiB ip "), rows.toString());
        assertTrue(s.out().contains("# pl: oop out-of-place, ip in-place"), s.out());
    }

    @Test
    void corruptForeignAndMissingBaselinesAreOneLineExitTwo() throws Exception {
        Path b = Files.createDirectories(dir.resolve("bad"));
        Files.writeString(b.resolve("torn.baseline.json"), "{\"kind\": \"ncclbench-baseline\", \"entr");
        Files.copy(run, b.resolve("foreign.baseline.json"));
        Files.writeString(b.resolve("future.baseline.json"), "{\"kind\": \"ncclbench-baseline\", \"schema_version\": 99}");
        for (String[] c : new String[][]{{"torn", "is corrupt"}, {"foreign", "is not a ncclbench baseline"},
                {"future", "schema_version 99"}, {"nope", "does not exist"}}) {
            CliRun g = cli("gate", "--dir", b.toString(), "--baseline", c[0], run.toString());
            assertEquals(2, g.code(), c[0] + ": " + g.err());
            assertEquals(1, g.err().lines().count(), g.err());
            assertTrue(g.err().contains(c[1]), g.err());
            assertFalse(g.err().contains("Exception"), g.err());
        }
        CliRun notJson = cli("gate", b.resolve("torn.baseline.json").toString());
        assertEquals(2, notJson.code());
        assertEquals(1, notJson.err().lines().count(), notJson.err());
    }

    @Test
    void recordRefusesRunsOfDifferentFingerprints() throws Exception {
        ObjectNode doc = (ObjectNode) JSON.readTree(run.toFile());
        ((ObjectNode) doc.get("environment")).put("NCCL_ALGO", "Ring");
        Path other = dir.resolve("other.json");
        JSON.writeValue(other.toFile(), doc);
        CliRun r = cli("baseline", "record", "--dir", dir.resolve("mixed").toString(), run.toString(), other.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("NCCL_ALGO: (unset) -> Ring"), r.err());
    }

    @Test
    void theGatePrintsWhatChanged() throws Exception {
        Path b = baselines("changed", run, run);
        ObjectNode doc = (ObjectNode) JSON.readTree(slow.toFile());
        ((ObjectNode) doc.get("environment")).put("NCCL_PROTO", "Simple");
        Path other = dir.resolve("proto.json");
        JSON.writeValue(other.toFile(), doc);
        CliRun g = cli("gate", "--dir", b.toString(), other.toString());
        assertEquals(6, g.code(), g.out() + g.err());
        assertTrue(g.out().contains("env NCCL_PROTO: (unset) -> Simple"), g.out());
        assertTrue(g.out().contains("what changed: NCCL_PROTO: (unset) -> Simple"), g.out());
    }
}
