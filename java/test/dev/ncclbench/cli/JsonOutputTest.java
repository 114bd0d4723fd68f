package dev.ncclbench.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import dev.ncclbench.CliRun;
import dev.ncclbench.Goldens;
import dev.ncclbench.env.Host;
import dev.ncclbench.launch.MultiProcessTest;
import dev.ncclbench.output.Json;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.ncclbench.CliRun.cli;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One output dialect (issue 52): every command that prints JSON takes --json FILE, '-' for standard output
 * ({@link JsonOutput}). '-' leaves standard output one JSON document and nothing else; FILE holds the same document,
 * with the text printed as before; the old switch's spelling never replaces a user's file.
 */
class JsonOutputTest {
    private static final Path LOGS = Path.of(System.getProperty("ncclbench.basedir", "."), "java", "test-resources",
            "nccllog");
    private static final Path HOSTS = Path.of(System.getProperty("ncclbench.basedir", "."), "java", "test-resources",
            "doctor", "hosts");
    private static final Path CHOICES = Goldens.resources().resolve("choices");

    @TempDir
    static Path dir;
    static Path log;

    @BeforeAll
    static void aLog() throws Exception {
        log = dir.resolve("job.log");
        Files.copy(LOGS.resolve("seeds/ib-without-gdrdma.log"), log);
    }

    /** Each command that prints a JSON document from what it reads alone: the same bytes on every run. */
    static Map<String, List<String>> commands() {
        Map<String, List<String>> c = new LinkedHashMap<>();
        c.put("rules", List.of("rules"));
        c.put("env", List.of("env"));
        c.put("explain", List.of("explain", log.toString()));
        c.put("explain --compare", List.of("explain", "--compare", CHOICES.resolve("ib-gdr-2.21.log").toString(),
                CHOICES.resolve("ib-nogdr-2.21.log").toString()));
        c.put("doctor", List.of("doctor", "--no-probe-nccl", "--root", HOSTS.resolve("a100-two-nic").toString()));
        c.put("probe", List.of("probe", "--lib", dir.resolve("no-such-libnccl.so.2").toString()));
        return c;
    }

    /** Exactly one JSON value in {@code text}, and nothing after it. */
    static JsonNode oneDocument(String what, String text) throws Exception {
        try (MappingIterator<JsonNode> it = Json.mapper().readerFor(JsonNode.class)
                .with(JsonParser.Feature.AUTO_CLOSE_SOURCE).readValues(text)) {
            assertTrue(it.hasNext(), what + ": no JSON on stdout");
            JsonNode doc = it.next();
            assertFalse(it.hasNext(), what + ": more than one JSON value on stdout: " + text);
            return doc;
        }
    }

    /** The one thing that differs from run to run: the probe child's own temporary folder (env, probe). */
    static String sameRun(String output) {
        return output.replaceAll("ncclbench-probe[0-9]+", "ncclbench-probeN");
    }

    static List<String> with(List<String> args, String... more) {
        List<String> a = new ArrayList<>(args);
        a.addAll(List.of(more));
        return a;
    }

    @Test
    void dashIsOneDocumentOnStdoutAndFileIsTheSameDocumentBesideTheText() throws Exception {
        for (Map.Entry<String, List<String>> c : commands().entrySet()) {
            CliRun text = cli(c.getValue());
            CliRun dash = cli(with(c.getValue(), "--json", "-"));
            assertEquals(text.code(), dash.code(), c.getKey() + ": " + dash.err());
            JsonNode doc = oneDocument(c.getKey(), dash.out());
            assertTrue(doc.path("kind").asText().startsWith("ncclbench."), c.getKey() + ": " + doc.path("kind"));

            Path file = dir.resolve(c.getKey().replace(' ', '_') + ".json");
            CliRun written = cli(with(c.getValue(), "--json", file.toString()));
            assertEquals(text.code(), written.code(), c.getKey() + ": " + written.err());
            assertEquals(sameRun(dash.out()), sameRun(Files.readString(file)), c.getKey() + ": the file is not the"
                    + " document of '-'");
            // the text as before, and no JSON mixed into it
            assertEquals(sameRun(text.out()), sameRun(written.out()), c.getKey());
            assertFalse(text.out().isBlank(), c.getKey() + " printed no text");
        }
    }

    @Test
    void aFileThatHoldsJsonIsReplaced() throws Exception {
        Path old = dir.resolve("old.json");
        Files.writeString(old, "  \n[1, 2]\n");
        assertEquals(0, cli("rules", "--json", old.toString()).code());
        assertEquals("ncclbench.rules", oneDocument("rules", Files.readString(old)).path("kind").asText());
        Path empty = Files.createFile(dir.resolve("empty.json"));
        assertEquals(0, cli("rules", "--json", empty.toString()).code());
        assertEquals("ncclbench.rules", oneDocument("rules", Files.readString(empty)).path("kind").asText());
    }

    @Test
    void theOldSwitchBeforeALogLeavesTheLogAsItWas() throws Exception {
        byte[] before = Files.readAllBytes(log);
        for (List<String> args : List.of(List.of("explain", "--json", log.toString()),
                List.of("explain", "--json", log.toString(), LOGS.resolve("seeds/nic-misselection.log").toString()),
                List.of("explain", "--fail-on", "warn", "--json", log.toString()))) {
            CliRun r = cli(args);
            assertEquals(2, r.code(), args + ": " + r.out() + r.err());
            assertEquals("ncclbench: --json " + log + ": " + log + " exists and is not a JSON file; --json takes FILE"
                    + " (the file to write), or '-' for standard output\n", r.err(), args.toString());
            assertEquals("", r.out(), args.toString());
            assertArrayEquals(before, Files.readAllBytes(log), args + " changed the log");
        }
    }

    @Test
    void anInputIsNeverTheOutputEvenWhenItHoldsJson() throws Exception {
        Path snapshot = dir.resolve("snapshot.json");
        assertEquals(0, cli("doctor", "--no-probe-nccl", "--root", HOSTS.resolve("a100-two-nic").toString(), "--save",
                snapshot.toString()).code());
        byte[] before = Files.readAllBytes(snapshot);
        CliRun r = cli("doctor", "--snapshot", snapshot.toString(), "--json", snapshot.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("--json " + snapshot + " is the snapshot (--snapshot), which this command reads"),
                r.err());
        assertArrayEquals(before, Files.readAllBytes(snapshot));
        // a log that holds JSON-looking text is still one of explain's inputs
        Path jsonish = dir.resolve("jsonish.log");
        Files.writeString(jsonish, "{\n" + Files.readString(log));
        CliRun e = cli("explain", jsonish.toString(), "--json", jsonish.toString());
        assertEquals(2, e.code(), e.err());
        assertTrue(e.err().contains("is the log " + jsonish + ", which this command reads"), e.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rules", "env", "doctor --no-probe-nccl", "probe", "explain", "gate", "preflight", "sweep",
            "sweep --force", "fleet"})
    void anExistingFileThatIsNotJsonIsRefusedBeforeAnythingRuns(String command) throws Exception {
        Path notes = dir.resolve("notes-" + command.replaceAll("[^a-z]+", "-") + ".txt");
        Files.writeString(notes, "  my notes, not JSON\n");
        byte[] before = Files.readAllBytes(notes);
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("--json", notes.toString()));
        if (command.equals("explain")) {
            args.add(log.toString());
        }
        if (command.equals("gate")) {
            args.add(dir.resolve("no-run.json").toString());
        }
        CliRun r = cli(args);
        assertEquals(2, r.code(), command + ": " + r.out() + r.err());
        assertEquals(1, r.err().lines().count(), command + ": " + r.err());
        assertTrue(r.err().contains(notes + " exists and is not a JSON file; --json takes FILE"), command + ": " + r.err());
        assertArrayEquals(before, Files.readAllBytes(notes), command + " changed the file");
    }

    @ParameterizedTest
    @ValueSource(strings = {"env --json", "doctor --json", "rules --json", "explain JOB --json", "gate RUN --json",
            "sweep --json", "doctor --json --no-probe-nccl"})
    void aBareJsonSaysWhatItTakes(String line) {
        String[] args = line.replace("JOB", log.toString()).replace("RUN", log.toString()).split(" ");
        CliRun r = cli(args);
        assertEquals(2, r.code(), line + ": " + r.err());
        assertEquals(1, r.err().lines().count(), line + ": " + r.err());
        assertTrue(r.err().contains("--json takes FILE (the file to write), or '-' for standard output (see 'ncclbench "
                + args[0] + " --help')"), line + ": " + r.err());
        assertEquals("", r.out(), line);
    }

    @Test
    void aSweepWithDashPrintsItsResultAloneOnStdoutAndKeepsItInItsFolder() throws Exception {
        Path runs = dir.resolve("sweep-runs");
        CliRun r = cli("sweep", "--backend", "socket", "--ranks", "2", "-b", "1K", "-e", "4K", "-n", "2", "-w", "1",
                "--no-progress", "--out", runs.toString(), "--json", "-");
        assertEquals(0, r.code(), r.err());
        JsonNode doc = oneDocument("sweep --json -", r.out());
        assertEquals("ncclbench.result", doc.path("kind").asText());
        assertTrue(r.err().contains("busbw"), "the table goes to stderr: " + r.err());
        try (var folders = Files.list(runs)) {
            Path result = folders.findFirst().orElseThrow().resolve("result.json");
            assertEquals(r.out(), Files.readString(result), "stdout is the run folder's result");
        }
    }

    @Test
    void aFleetWithDashPrintsFleetJsonOnRankZerosStdoutAndTheTextOnStderr() throws Exception {
        int port = MultiProcessTest.freePortPair();
        Host host = Host.of(new HashMap<>(Map.of("NCCLBENCH_TOKEN", "4a1f9c2e7b3d5f60819a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70", "NCCL_SOCKET_IFNAME", "lo")));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<String[]>> ranks = new ArrayList<>();
            for (int rank = 0; rank < 2; rank++) {
                List<String> a = List.of("fleet", "--rank", String.valueOf(rank), "--world-size", "2", "--rendezvous",
                        "127.0.0.1:" + port, "--node-name", "node-" + rank, "--backend", "socket", "--sizes", "1K",
                        "-n", "3", "-w", "1", "-T", "60", "--out", dir.resolve("fleet-runs-" + rank).toString(),
                        "--json", "-");
                ranks.add(pool.submit(() -> {
                    StringWriter out = new StringWriter();
                    StringWriter err = new StringWriter();
                    int code = Main.run(a.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err), host);
                    return new String[]{String.valueOf(code), out.toString(), err.toString()};
                }));
            }
            String[] zero = ranks.get(0).get(180, TimeUnit.SECONDS);
            String[] one = ranks.get(1).get(180, TimeUnit.SECONDS);
            assertEquals("0", zero[0], zero[2]);
            assertEquals("0", one[0], one[2]);
            assertEquals("ncclbench.fleet", oneDocument("fleet rank 0", zero[1]).path("kind").asText());
            assertEquals("", one[1], "rank 1 prints no JSON");
            assertTrue(one[2].contains("done"), "rank 1's line goes to stderr: " + one[2]);
            try (var folders = Files.list(dir.resolve("fleet-runs-0"))) {
                Path json = folders.findFirst().orElseThrow().resolve("fleet.json");
                assertEquals(zero[1], Files.readString(json), "stdout is the run folder's fleet.json");
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
