package dev.ncclbench.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.Host;
import dev.ncclbench.output.Json;
import dev.ncclbench.rendezvous.JobSecret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A search of two nodes (threads of this JVM, each a whole FleetRun over real loopback sockets, socket backend): the
 * drain list is written only when the nodes proved a shared secret, or when --allow-unauthenticated says so; a node
 * with another secret is refused and the search waits for the real one; one refused and never replaced is said
 * refused, with why; what is printed as the drain list is what the file holds; a node says in one line that it is done.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class FleetDrainTest {
    private static final String SECRET = "5b0c8e1f2a3d4c5b6a7980a1b2c3d4e5f60718293a4b5c6d7e8f901a2b3c4d5e";

    @TempDir
    Path dir;

    /** A port outside the kernel's ephemeral range, free now (fleet's --rendezvous needs one, not 0). */
    private static int freePort() throws IOException {
        int[] eph = dev.ncclbench.rendezvous.Ports.ephemeralRange();
        java.util.Random random = new java.util.Random();
        for (int attempt = 0; attempt < 200; attempt++) {
            int p = 10000 + random.nextInt(eph[0] - 10000 - 1);
            try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
                return p;
            } catch (IOException busy) {
                // another
            }
        }
        throw new IOException("no free port on 127.0.0.1 below " + eph[0]);
    }

    private FleetRun.Options options(Path run, int port, int rank, boolean allow) {
        return options(run, port, rank, allow, 60);
    }

    private FleetRun.Options options(Path run, int port, int rank, boolean allow, int seconds) {
        FleetSettings settings = new FleetSettings(List.of(1L << 20), false, 5, 1, seconds, 0, "socket", 1, "lo");
        return new FleetRun.Options(settings, new SearchOptions(null, 2, 2, SearchOptions.DEFAULT_MARGIN,
                OptionalDouble.empty(), 1), null, new FleetRun.Node("127.0.0.1:" + port, rank, 2, "node-" + rank, null),
                new FleetRun.Files(run, new FleetOutputs.Paths(run.resolve("fleet.json"), run.resolve("fleet.html"),
                        run.resolve("drain.txt"), run.resolve("fleet-junit.xml"), run.resolve("fleet.prom")), "run-" + port,
                        allow),
                new FleetRun.Baselines(null, null, run), FleetRun.Rails.NONE);
    }

    private static Map<String, String> env(String secret) {
        Map<String, String> env = new HashMap<>();
        if (secret != null) {
            env.put("NCCLBENCH_TOKEN", secret);
        }
        return env;
    }

    /**
     * Rank 0's printed output, once both nodes are done; rank 0's exit is OK (two healthy loopback nodes), and rank 1
     * said in one line that it is done, what rank 0 decided and where the verdicts are.
     */
    private String search(Path run, String secret0, String secret1, boolean allow) throws Exception {
        int port = freePort();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            StringWriter out = new StringWriter();
            StringWriter out1 = new StringWriter();
            Future<ExitCode> rank0 = pool.submit(() -> FleetRun.run(options(run, port, 0, allow), new PrintWriter(out, true),
                    new PrintWriter(new StringWriter(), true), Host.of(env(secret0))));
            Future<ExitCode> rank1 = pool.submit(() -> FleetRun.run(options(run, port, 1, allow),
                    new PrintWriter(out1, true), new PrintWriter(new StringWriter(), true), Host.of(env(secret1))));
            assertEquals(ExitCode.OK, rank0.get(120, TimeUnit.SECONDS), out.toString());
            assertEquals(ExitCode.OK, rank1.get(120, TimeUnit.SECONDS));
            assertEquals(1, out1.toString().lines().count(), out1.toString());
            assertTrue(out1.toString().startsWith("ncclbench fleet: rank 1 (node-1) done: rank 0 (node-0) decided after "),
                    out1.toString());
            assertTrue(out1.toString().contains("nothing bad found; drain: none; its verdicts are in "
                    + run.resolve("fleet.json").toAbsolutePath() + " on node-0"), out1.toString());
            return out.toString();
        } finally {
            pool.shutdownNow();
        }
    }

    private static JsonNode json(Path run) throws IOException {
        return Json.mapper().readTree(run.resolve("fleet.json").toFile());
    }

    @Test
    void anUnauthenticatedSearchWritesNoDrainListAndRemovesAStaleOne() throws Exception {
        Path run = Files.createDirectories(dir.resolve("open"));
        Files.writeString(run.resolve("drain.txt"), "node-of-an-earlier-run\n");
        String out = search(run, null, null, false);
        assertTrue(out.contains("# " + JobSecret.NOT_AUTHENTICATED + "; no drain list is written"), out);
        assertTrue(out.contains("(no drain list: not authenticated)"), out);
        assertFalse(Files.exists(run.resolve("drain.txt")), "no drain list, and no stale one for a script to drain");
        assertFalse(json(run).get("rendezvous_authenticated").asBoolean());
        assertTrue(json(run).has("drain_withheld"));
        assertTrue(Files.readString(run.resolve("fleet.html")).contains("<h2>Drain: withheld</h2>"));
    }

    @Test
    void allowUnauthenticatedWritesTheDrainListAndSaysSo() throws Exception {
        Path run = Files.createDirectories(dir.resolve("allowed"));
        String out = search(run, null, null, true);
        assertTrue(out.contains(JobSecret.NOT_AUTHENTICATED + " (drain list written: --allow-unauthenticated)"), out);
        assertTrue(Files.exists(run.resolve("drain.txt")));
        assertFalse(json(run).get("rendezvous_authenticated").asBoolean());
    }

    /** Runs {@code rank} on {@code pool} with {@code env}, its printed output into {@code out}. */
    private Future<ExitCode> rank(ExecutorService pool, Path run, int port, int rank, int seconds, Map<String, String> env,
                                  StringWriter out) {
        return pool.submit(() -> FleetRun.run(options(run, port, rank, false, seconds), new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true), Host.of(env)));
    }

    /** A process that claims rank 1 with {@code env}: refused in one line, exit 2, and the search waits on. */
    private NcclbenchException intruder(Path run, int port, int seconds, Map<String, String> env) {
        NcclbenchException refused = assertThrows(NcclbenchException.class, () -> FleetRun.run(
                options(run, port, 1, false, seconds), new PrintWriter(new StringWriter(), true),
                new PrintWriter(new StringWriter(), true), Host.of(env)));
        assertEquals(ExitCode.USAGE, refused.exitCode());
        assertEquals(1, refused.getMessage().lines().count(), refused.getMessage());
        assertTrue(refused.getMessage().contains("refused rank 1: wrong job token: this search belongs to another job"),
                refused.getMessage());
        return refused;
    }

    /** Rank 0 with {@code env0}; an intruder with {@code intruder} refused; then the real rank 1 with {@code env1}. */
    private String intrudedSearch(Path run, Map<String, String> env0, Map<String, String> intruder, Map<String, String> env1)
            throws Exception {
        int port = freePort();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            StringWriter out = new StringWriter();
            Future<ExitCode> rank0 = rank(pool, run, port, 0, 60, env0, out);
            NcclbenchException refused = intruder(run, port, 60, intruder);
            Future<ExitCode> rank1 = rank(pool, run, port, 1, 60, env1, new StringWriter());
            assertEquals(ExitCode.OK, rank0.get(120, TimeUnit.SECONDS), out.toString());
            assertEquals(ExitCode.OK, rank1.get(120, TimeUnit.SECONDS));
            assertEquals(FleetOutputs.DRAIN_HEADER + "run-" + port + "\n", Files.readString(run.resolve("drain.txt")));
            return refused.getMessage();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSecretSearchWritesTheDrainListAndRefusesANodeWithAnotherSecret() throws Exception {
        Path run = Files.createDirectories(dir.resolve("secret"));
        intrudedSearch(run, env(SECRET), env("an-intruder-with-its-own-secret-0123456789"), env(SECRET));
        assertTrue(json(run).get("rendezvous_authenticated").asBoolean());
        assertFalse(json(run).has("drain_withheld"));
    }

    /**
     * Issue 50: a rank refused for its secret, and never replaced, is said refused and why, not "never joined (not
     * started ...)"; it has no node name, so it is not drained, and the printed drain list says what the file holds.
     */
    @Test
    void aRankRefusedForItsSecretIsSaidRefusedAndThePrintedDrainListIsTheFiles() throws Exception {
        Path run = Files.createDirectories(dir.resolve("refused"));
        int port = freePort();
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try {
            StringWriter out = new StringWriter();
            Future<ExitCode> rank0 = rank(pool, run, port, 0, 5, env(SECRET), out);
            intruder(run, port, 5, env("an-intruder-with-its-own-secret-0123456789"));
            assertEquals(ExitCode.DEGRADED, rank0.get(120, TimeUnit.SECONDS), out.toString());
            String text = out.toString();
            assertTrue(text.contains("# rank 1 (rank 1) never joined the search: rank 0 refused the process that came as"
                    + " rank 1 (wrong job token: this search belongs to another job"), text);
            assertFalse(text.contains("not started, crashed at start"), text);
            assertTrue(text.contains("\ndrain: none\nnot drained: rank 1: no node name is known (give --node-list)\n"), text);
            assertEquals(FleetOutputs.DRAIN_HEADER + "run-" + port + "\n", Files.readString(run.resolve("drain.txt")));
            JsonNode j = json(run);
            assertEquals(0, j.get("drain").size());
            assertEquals("rank 1", j.get("drain_withheld").get(0).asText());
        } finally {
            pool.shutdownNow();
        }
    }

    /** One secret given to two jobs: a node of the other job is refused as another job's, and the search goes on. */
    @Test
    void aNodeOfAnotherJobWithTheSameSecretIsRefused() throws Exception {
        String refused = intrudedSearch(Files.createDirectories(dir.resolve("two-jobs")), job(0, "jobA"), job(1, "jobB"),
                job(1, "jobA"));
        assertTrue(refused.endsWith("; this process: flags job jobB, 2 ranks"), refused);
    }

    /** Rank {@code rank} of torchrun's run {@code runId} (the job id the token binds), with the one secret. */
    private static Map<String, String> job(int rank, String runId) {
        Map<String, String> env = env(SECRET);
        env.put("RANK", String.valueOf(rank));
        env.put("WORLD_SIZE", "2");
        env.put("TORCHELASTIC_RUN_ID", runId);
        return env;
    }
}
