package dev.ncclbench.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ncclbench.Goldens;
import dev.ncclbench.choices.ChoicesReader;
import dev.ncclbench.cli.Main;
import dev.ncclbench.nccllog.NcclLogReader;
import dev.ncclbench.output.Json;
import dev.ncclbench.preflight.Preflight;
import dev.ncclbench.results.ResultFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gate puts what NCCL decided differently beside a failing verdict, in every format, and says the choices are
 * unknown (never "no change") for a run that kept no log. The runs: a recorded result with NCCL's choices read
 * from the GPUDirect-RDMA-on fixture, and the same result ten times slower with the choices of the GDR-off one.
 */
class GateNcclChoicesTest {
    private static final Path FIXTURES = Goldens.resources().resolve("choices");

    @TempDir
    static Path dir;
    static Path baselines;
    static Path slowGdrOff;
    static Path slowNoLog;

    static String[] cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[]{String.valueOf(code), out.toString(), err.toString()};
    }

    static Path result(String name, String log, double slower) throws IOException {
        ObjectNode doc = (ObjectNode) Json.mapper().readTree(Goldens.resources().resolve(
                "golden/json/old/result-v1.json").toFile());
        for (JsonNode row : doc.get("rows")) {
            for (String placement : List.of("out_of_place", "in_place")) {
                // 12 samples a placement (the recorded 3, four times, 1% apart): enough for the gate to be sure of
                // a tenfold slowdown in each placement judged on its own
                ArrayNode samples = (ArrayNode) row.get(placement).get("samples_us");
                List<Double> recorded = new ArrayList<>();
                samples.forEach(v -> recorded.add(v.asDouble()));
                samples.removeAll();
                for (int k = 0; k < 4; k++) {
                    for (double v : recorded) {
                        samples.add(v * slower * (1 + 0.01 * k));
                    }
                }
            }
        }
        if (log != null) {
            doc.set("nccl_choices", Json.mapper().valueToTree(ChoicesReader.of(
                    NcclLogReader.readAll(List.of(FIXTURES.resolve(log))))));
        }
        Path p = dir.resolve(name);
        Json.mapper().writeValue(p.toFile(), doc);
        return p;
    }

    @BeforeAll
    static void runs() throws IOException {
        Path base = result("base.json", "ib-gdr-2.21.log", 1);
        slowGdrOff = result("slow-gdr-off.json", "ib-nogdr-2.21.log", 10);
        slowNoLog = result("slow-no-log.json", null, 10);
        baselines = dir.resolve("baselines");
        String[] r = cli("baseline", "record", "--dir", baselines.toString(), "--name", "gdr", base.toString(),
                base.toString());
        assertEquals("0", r[0], r[1] + r[2]);
    }

    @Test
    void theResultAndTheBaselineKeepTheChoices() throws IOException {
        assertEquals(2, ResultFiles.read(slowGdrOff).ncclChoices().netPairs());
        JsonNode b = Json.mapper().readTree(baselines.resolve("gdr.baseline.json").toFile());
        assertEquals("NET/IB/0/GDRDMA", b.at("/runs/0/nccl_choices/net_examples/NET~1IB~1GDRDMA").asText());
    }

    @Test
    void aRegressionSaysWhatNcclDecidedDifferentlyInEveryFormat() throws IOException {
        Path md = dir.resolve("gate.md");
        Path junit = dir.resolve("gate.xml");
        String[] g = cli("gate", "--dir", baselines.toString(), "--markdown", md.toString(), "--junit",
                junit.toString(), slowGdrOff.toString());
        assertEquals("6", g[0], g[1] + g[2]);
        String text = g[1];
        assertTrue(text.contains("# what NCCL decided differently from the baseline:\n#   GPUDirect RDMA off on 2 of"
                + " 2 pairs: NET/IB/0/GDRDMA -> NET/IB/0; send and receive staged through host memory"), text);
        assertTrue(Files.readString(md, StandardCharsets.UTF_8).contains(
                "### What NCCL decided differently from the baseline\n\n- GPUDirect RDMA off on 2 of 2 pairs"));
        assertTrue(Files.readString(junit, StandardCharsets.UTF_8).contains(
                "what NCCL decided differently from the baseline:\nGPUDirect RDMA off on 2 of 2 pairs"));
        JsonNode j = Json.mapper().readTree(cli("gate", "--dir", baselines.toString(), "--json", "-",
                slowGdrOff.toString())[1]);
        assertTrue(j.at("/nccl_choices/known").asBoolean());
        assertEquals("gdr", j.at("/nccl_choices/changes/0/fact").asText());
        assertEquals("NET/IB/0/GDRDMA", j.at("/nccl_choices/changes/0/before").asText());
        assertEquals("NET/IB/0", j.at("/nccl_choices/changes/0/after").asText());
    }

    @Test
    void aRunWithoutALogHasUnknownChoicesNotNoChange() {
        String[] g = cli("gate", "--dir", baselines.toString(), slowNoLog.toString());
        assertEquals("6", g[0], g[1] + g[2]);
        assertTrue(g[1].contains("#   NCCL's choices are unknown: this run kept no NCCL log"), g[1]);
        assertFalse(g[1].contains("no change in what NCCL decided"), g[1]);
    }

    @Test
    void preflightsLineNamesTheFirstChange() throws IOException {
        var run = ResultFiles.read(slowGdrOff);
        // recorded elsewhere: no NIC rate read from this host
        GateReport r = new Gate(GateOptions.defaults()).judge(slowGdrOff.toString(), run,
                dev.ncclbench.baseline.RunSamples.of(run, slowGdrOff.toString()),
                dev.ncclbench.baseline.Fingerprint.of(run, null),
                dev.ncclbench.baseline.BaselineStore.read(baselines.resolve("gdr.baseline.json")), "gdr", new ArrayList<>(),
                null);
        Preflight.Verdict v = Preflight.decide(List.of(), new Preflight.Sweep(0, null), Preflight.GateStep.of(r));
        assertTrue(v.line().contains("; GPUDirect RDMA off on 2 of 2 pairs (was NET/IB/0/GDRDMA)"), v.line());
    }
}
