package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ncclbench.ChildCli;
import dev.ncclbench.CliRun;
import dev.ncclbench.Goldens;
import dev.ncclbench.InstallDir;
import dev.ncclbench.baseline.BaselineFolder;
import dev.ncclbench.output.Json;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gate run from a folder that is not the checkout, as a CI job that cds into its workspace or a bundle user runs
 * it (issue 50): it finds the baseline the checkout or bundle holds, and when none was measured as the run was, it
 * says so as its verdict (NO_BASELINE, exit 7), never PASS. Real child JVMs in a temporary working folder; the
 * regressed run is a real socket run's file (golden/json/old/result-v1.json, two ranks over loopback) with every
 * time made ten times slower and its per-iteration samples left out, so the table times decide.
 */
class GateFromAnyFolderTest {
    static final Path RUN = Goldens.resources().resolve("golden/json/old/result-v1.json");
    @TempDir
    static Path dir;
    static Path slow;

    @BeforeAll
    static void aRegressedRun() throws Exception {
        ObjectNode doc = (ObjectNode) Json.mapper().readTree(RUN.toFile());
        for (JsonNode row : doc.get("rows")) {
            for (String placement : List.of("out_of_place", "in_place")) {
                ObjectNode p = (ObjectNode) row.get(placement);
                p.put("time_us", p.get("time_us").asDouble() * 10);
                p.remove("samples_us");
                p.remove("samples");
            }
        }
        slow = dir.resolve("slow.json");
        Json.mapper().writeValue(slow.toFile(), doc);
    }

    /** A checkout or bundle (its results/baselines/ as shipped: the catalog only) and a working folder apart from it. */
    static Path[] installAndWork(String name) throws Exception {
        Path install = dir.resolve(name).resolve("ncclbench");
        Files.createDirectories(install.resolve(InstallDir.BASELINES));
        Path work = Files.createDirectories(dir.resolve(name).resolve("ci-workspace"));
        return new Path[] {install, work};
    }

    private static String last(String out) {
        return out.lines().reduce((a, b) -> b).orElse("");
    }

    @Test
    void theFolderGivenWinsThenTheInstallsThenTheWorkingFolders() {
        Path install = dir.resolve("some/ncclbench");
        assertEquals(Path.of("mine"), BaselineFolder.of(Path.of("mine"), java.util.Optional.of(install)), "--dir");
        assertEquals(install.resolve("results/baselines"), BaselineFolder.of(null, java.util.Optional.of(install)));
        assertEquals(Path.of("results/baselines"), BaselineFolder.of(null, java.util.Optional.empty()),
                "a jar on its own: the working folder's");
    }

    @Test
    void fromAnotherFolderTheInstallsBaselineIsFoundAndTheRegressionFails() throws Exception {
        Path[] iw = installAndWork("found");
        // recorded from the workspace too: it lands in the install's folder, where the gate looks
        CliRun rec = ChildCli.run(iw[0], iw[1], "baseline", "record", RUN.toString(), RUN.toString(), "--name", "lab");
        assertEquals(0, rec.code(), rec.out() + rec.err());
        assertTrue(Files.isRegularFile(iw[0].resolve(InstallDir.BASELINES).resolve("lab.baseline.json")), rec.out());
        assertFalse(Files.exists(iw[1].resolve("results")), "nothing written in the working folder");

        CliRun g = ChildCli.run(iw[0], iw[1], "gate", slow.toString());
        assertEquals(6, g.code(), g.out() + g.err());
        assertTrue(last(g.out()).startsWith("REGRESSION: all_reduce 8 B latency +900.0%"), g.out());
        assertTrue(g.out().startsWith("# gate: " + slow + " against baseline lab (2 runs"), g.out());
    }

    @Test
    void noMatchingBaselineIsTheVerdictNoBaselineNeverPass() throws Exception {
        Path[] iw = installAndWork("none");
        // a baseline of this run in the working folder is not the install's: the gate does not read it
        Files.createDirectories(iw[1].resolve("results/baselines"));
        CliRun rec = ChildCli.run(iw[0], iw[1], "baseline", "record", RUN.toString(), RUN.toString(), "--dir",
                "results/baselines");
        assertEquals(0, rec.code(), rec.err());

        CliRun g = ChildCli.run(iw[0], iw[1], "gate", slow.toString());
        assertEquals(7, g.code(), g.out() + g.err());
        assertFalse(g.out().lines().anyMatch(l -> l.startsWith("PASS")), g.out());
        Path searched = iw[0].resolve(InstallDir.BASELINES);
        String verdict = last(g.out());
        assertTrue(verdict.startsWith("NO_BASELINE: nothing compared: there is no baseline in " + searched
                + " (this run: socket, 1 node, 2 ranks, lo"), verdict);
        assertTrue(verdict.contains("; fingerprint ") && verdict.contains("record one: ncclbench baseline record "
                + slow + " --baseline-dir " + searched + "; or give --curve-only"), verdict);
        assertEquals("", g.err(), "the verdict says it, not a note on stderr");

        CliRun j = ChildCli.run(iw[0], iw[1], "gate", "--json", "-", slow.toString());
        assertEquals(7, j.code(), j.err());
        JsonNode tree = Json.mapper().readTree(j.out());
        assertEquals("NO_BASELINE", tree.get("verdict").asText());
        assertEquals(7, tree.get("exit_code").asInt());
        assertEquals(searched.toString(), tree.at("/no_baseline/folder").asText());
        assertEquals(0, tree.at("/no_baseline/baselines").asInt());
        assertEquals("uncompared", tree.at("/sizes/0/status").asText());

        // --dir names the working folder's: compared there
        CliRun named = ChildCli.run(iw[0], iw[1], "gate", "--dir", "results/baselines", slow.toString());
        assertEquals(6, named.code(), named.out() + named.err());
    }

    @Test
    void curveOnlyAsksForTheCurveCheckAloneAndSaysSo() throws Exception {
        Path[] iw = installAndWork("curve");
        CliRun g = ChildCli.run(iw[0], iw[1], "gate", "--curve-only", slow.toString());
        assertEquals(0, g.code(), g.out() + g.err());
        assertEquals("PASS: the curve check alone (--curve-only) found nothing that degrades the path; no baseline"
                + " compared", last(g.out()));
        assertTrue(g.out().contains("not compared (no baseline)"), g.out());

        CliRun both = ChildCli.run(iw[0], iw[1], "gate", "--curve-only", "--baseline", "lab", slow.toString());
        assertEquals(2, both.code(), both.out() + both.err());
        assertTrue(both.err().contains("--curve-only judges the curve alone and --baseline lab"), both.err());
    }
}
