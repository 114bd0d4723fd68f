package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ncclbench.CliRun;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import static dev.ncclbench.CliRun.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gate compares or refuses (issues 30 and 31): a baseline of one configuration, runs of other configurations
 * gated against it by name. Real socket runs over loopback: all_reduce float 2 ranks (the baseline), all_gather,
 * 3 ranks, other sizes; the type, op, versions and status changes are that run's own file edited, as the fields
 * are what the gate reads.
 */
class GateAdmissionTest {
    @TempDir
    static Path dir;
    static Path run;
    static Path gather;
    static Path threeRanks;
    static Path otherSizes;
    static Path baselines;
    static final ObjectMapper JSON = new ObjectMapper();

    static Path sweep(String name, String... flags) {
        Path json = dir.resolve(name + ".json");
        List<String> args = new java.util.ArrayList<>(List.of("sweep", "--backend", "socket", "-f", "4", "-n", "5",
                "-w", "1", "--no-progress", "--json", json.toString(), "--out", dir.toString()));
        args.addAll(List.of(flags));
        CliRun r = cli(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return json;
    }

    @BeforeAll
    static void realRuns() {
        run = sweep("run", "--ranks", "2", "-b", "64K", "-e", "1M");
        gather = sweep("gather", "--ranks", "2", "-b", "64K", "-e", "1M", "--collective", "all_gather");
        threeRanks = sweep("three", "--ranks", "3", "-b", "64K", "-e", "1M");
        otherSizes = sweep("sizes", "--ranks", "2", "-b", "4M", "-e", "4M");
        baselines = dir.resolve("baselines");
        CliRun r = cli("baseline", "record", "--dir", baselines.toString(), "--name", "lab", run.toString(),
                run.toString());
        assertEquals(0, r.code(), r.err());
    }

    static Path edited(String name, Consumer<ObjectNode> edit) throws Exception {
        ObjectNode doc = (ObjectNode) JSON.readTree(run.toFile());
        edit.accept(doc);
        Path p = dir.resolve(name + ".json");
        JSON.writeValue(p.toFile(), doc);
        return p;
    }

    static CliRun gate(Path file, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("gate", "--dir", baselines.toString(), "--baseline",
                "lab"));
        args.addAll(List.of(more));
        args.add(file.toString());
        return cli(args.toArray(String[]::new));
    }

    @Test
    void runsOfOtherConfigurationsAreRefusedNamingEveryDifference() throws Exception {
        Path doubles = edited("double", d -> ((ObjectNode) d.get("spec")).put("type", "double"));
        Path maxOp = edited("max", d -> ((ObjectNode) d.get("spec")).put("op", "max"));
        record Case(Path file, String names) {
        }
        for (Case c : List.of(new Case(gather, "collective: all_reduce -> all_gather"),
                new Case(threeRanks, "ranks: 2 -> 3"), new Case(doubles, "type: float -> double"),
                new Case(maxOp, "op: sum -> max"))) {
            CliRun g = gate(c.file());
            assertEquals(2, g.code(), c.file() + ": " + g.out() + g.err());
            assertFalse(g.out().contains("PASS"), g.out());
            assertEquals(1, g.err().lines().count(), g.err());
            assertTrue(g.err().contains(c.names()), g.err());
            assertTrue(g.err().contains("ncclbench baseline record --name "), g.err());
        }
        CliRun allowed = gate(threeRanks, "--allow-changed", "ranks");
        assertTrue(allowed.code() == 0 || allowed.code() == 6, allowed.err());
        assertTrue(allowed.out().contains("ranks: 2 -> 3"), allowed.out());
        CliRun unknown = gate(threeRanks, "--allow-changed", "colour");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("--allow-changed: no field 'colour'"), unknown.err());
    }

    @Test
    void zeroSizesComparedIsNothingToCompareWithBothRanges() {
        CliRun g = gate(otherSizes);
        assertEquals(2, g.code(), g.out() + g.err());
        String verdict = g.out().lines().reduce((a, c) -> c).orElse("");
        assertTrue(verdict.contains("nothing to compare"), verdict);
        assertTrue(verdict.contains("all_reduce float 4 MiB-4 MiB (1 size)"), verdict);
        assertTrue(verdict.contains("all_reduce float 64 KiB-1 MiB (3 sizes)"), verdict);
        assertFalse(verdict.startsWith("PASS"), verdict);
    }

    @Test
    void aDriverUpgradeIsGatedAndNamed() throws Exception {
        Path upgraded = edited("upgraded", d -> ((ObjectNode) d.get("versions")).put("driver", "999.99"));
        CliRun g = gate(upgraded);
        assertEquals(0, g.code(), g.out() + g.err());
        assertTrue(g.out().contains("version driver: "), g.out());
        assertTrue(g.out().contains("-> 999.99"), g.out());
        assertTrue(g.out().lines().reduce((a, c) -> c).orElse("").startsWith("PASS: 3 sizes"), g.out());
    }

    @Test
    void aSizeInOneSideIsListedAndFailsWithRequireAllSizes() throws Exception {
        Path fewer = edited("fewer", d -> ((ArrayNode) d.get("rows")).remove(2));
        CliRun g = gate(fewer);
        assertEquals(0, g.code(), g.out() + g.err());
        assertTrue(g.out().contains("not compared (in one side only): all_reduce 1 MiB (not in run)"), g.out());
        CliRun strict = gate(fewer, "--require-all-sizes");
        assertEquals(6, strict.code(), strict.out());
        assertTrue(strict.out().lines().reduce((a, c) -> c).orElse("").startsWith("INCOMPLETE: all_reduce 1 MiB"),
                strict.out());
    }

    @Test
    void interruptedRunsAreRefusedUnlessAllowPartial() throws Exception {
        Path cut = edited("cut", d -> {
            d.put("status", "interrupted");
            ((ArrayNode) d.get("rows")).remove(2);
        });
        CliRun g = gate(cut);
        assertEquals(2, g.code(), g.out() + g.err());
        assertTrue(g.err().contains("is a run that ended interrupted"), g.err());
        CliRun partial = gate(cut, "--allow-partial");
        assertEquals(0, partial.code(), partial.out() + partial.err());
        assertTrue(partial.out().contains("only its 2 measured sizes judged (--allow-partial)"), partial.out());
        CliRun report = cli("report", "--dir", baselines.toString(), "--html", dir.resolve("cut.html").toString(),
                cut.toString());
        assertEquals(2, report.code(), report.out() + report.err());
        assertFalse(Files.exists(dir.resolve("cut.html")));
    }

    @Test
    void aBaselineOrAGateDocumentIsNotARun() throws Exception {
        Path gateJson = dir.resolve("gate-decision.json");
        Files.writeString(gateJson, cli("gate", "--dir", baselines.toString(), "--json", "-", run.toString()).out());
        Path baselineFile = baselines.resolve("lab.baseline.json");
        for (Path p : List.of(gateJson, baselineFile)) {
            String what = p == gateJson ? "a gate document" : "a baseline document";
            CliRun g = gate(p);
            assertEquals(2, g.code(), g.out());
            assertTrue(g.err().contains(what) && g.err().contains("not a run's result"), g.err());
            CliRun r = cli("report", "--html", dir.resolve("x.html").toString(), p.toString());
            assertEquals(2, r.code(), r.out());
            assertTrue(r.err().contains(what), r.err());
        }
    }

    @Test
    void aBaselineNameIsNotReplacedSilently() {
        CliRun again = cli("baseline", "record", "--dir", baselines.toString(), "--name", "lab", run.toString());
        assertEquals(2, again.code(), again.out());
        assertTrue(again.err().contains("already exists; --append adds these runs to it, --force replaces it"),
                again.err());
        Path other = dir.resolve("append-dir");
        assertEquals(0, cli("baseline", "record", "--dir", other.toString(), "--name", "x", run.toString()).code());
        CliRun appended = cli("baseline", "record", "--dir", other.toString(), "--name", "x", "--append",
                run.toString());
        assertEquals(0, appended.code(), appended.err());
        assertTrue(appended.out().contains("baseline x: 2 runs"), appended.out());
        CliRun forced = cli("baseline", "record", "--dir", other.toString(), "--name", "x", "--force", run.toString());
        assertEquals(0, forced.code(), forced.err());
        assertTrue(forced.out().contains("baseline x: 1 run,"), forced.out());
        CliRun mixed = cli("baseline", "record", "--dir", other.toString(), "--name", "x", "--append",
                threeRanks.toString());
        assertEquals(2, mixed.code());
        assertTrue(mixed.err().contains("ranks: 2 -> 3"), mixed.err());
    }

    @Test
    void anExistingJsonIsNotOverwrittenWithoutForce() throws Exception {
        String before = Files.readString(run);
        CliRun r = cli("sweep", "--backend", "socket", "--ranks", "2", "-b", "1K", "-e", "1K", "-n", "2",
                "--no-progress", "--json", run.toString(), "--out", dir.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("already exists") && r.err().contains("--force"), r.err());
        assertEquals(before, Files.readString(run));
        Path journal = dir.resolve("held.json.partial");
        Files.writeString(journal, "");
        CliRun held = cli("sweep", "--backend", "socket", "--ranks", "2", "-b", "1K", "-e", "1K", "-n", "2",
                "--no-progress", "--json", dir.resolve("held.json").toString(), "--out", dir.toString());
        assertEquals(2, held.code(), held.err());
        assertTrue(held.err().contains("is taken: its journal"), held.err());
    }

    @Test
    void aFabricIsHonouredOnSocketRunsOrRefused() throws Exception {
        CliRun g = gate(run, "--fabric", "ib-hdr");
        assertEquals(6, g.code(), g.out() + g.err());
        assertTrue(g.out().contains("went over TCP sockets (socket backend), not the rdma path"), g.out());
        assertFalse(g.out().lines().reduce((a, c) -> c).orElse("").startsWith("PASS"), g.out());
        CliRun s = cli("sweep", "--backend", "socket", "--ranks", "2", "-b", "1K", "-e", "4K", "-n", "2", "-w", "1",
                "--no-progress", "--fabric", "ib-hdr", "--json", dir.resolve("fabric.json").toString(), "--out",
                dir.toString());
        assertEquals(6, s.code(), s.out() + s.err());
        assertTrue(s.err().contains("degraded path: the run went over TCP sockets"), s.err());
        Path gpuRun = edited("gpu", d -> d.put("backend", "nccl"));
        CliRun refused = cli("gate", "--dir", dir.resolve("none").toString(), "--fabric", "ib-hdr", gpuRun.toString());
        assertEquals(2, refused.code(), refused.out() + refused.err());
        assertTrue(refused.err().contains("--fabric ib-hdr is an inter-node fabric"), refused.err());
    }
}
