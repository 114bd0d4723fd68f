package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ncclbench.ChildJvm;
import dev.ncclbench.backend.Backends;
import dev.ncclbench.collective.AllToAllVPattern;
import dev.ncclbench.env.Host;
import dev.ncclbench.output.Json;
import dev.ncclbench.spec.RunSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The host Main is given is the one every command sees: a test's own variables, never the JVM's, and a second command
 * in the same JVM on another host gets its own answers (nothing environment-derived is kept in a static).
 */
class MainEnvironmentTest {
    /** What the child JVM's environment holds and the host it is handed does not: each would fail the sweep. */
    private static final Map<String, String> JVM_ONLY = Map.of(
            "WORLD_SIZE", "2", // a torchrun launch without RANK: exit 2
            "NCCL_TESTS_SPLIT", "NOT A SPLIT", // refused as malformed: exit 2
            "NCCL_SOCKET_IFNAME", "=doesnotexist0"); // the socket backend finds no interface

    /**
     * Runs in a child JVM whose environment has {@link #JVM_ONLY}: the sweep on an empty host runs (exit 0), the same
     * sweep on the JVM's own environment does not. Prints both exit codes.
     */
    public static void main(String[] args) {
        StringWriter err = new StringWriter();
        int given = Main.run(args, new PrintWriter(new StringWriter()), new PrintWriter(err), Host.of(Map.of()));
        int jvm = Main.run(args, new PrintWriter(new StringWriter()), new PrintWriter(err), Host.of(System.getenv()));
        System.out.println(given + " " + jvm);
        System.out.println(err.toString().replace('\n', ' '));
    }

    @Test
    void noVariableOfTheJvmReachesACommandOnTheHostGiven(@TempDir Path dir) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(ChildJvm.javaCommand(), "-Xmx256m", "-XX:+UseSerialGC", "-cp",
                ChildJvm.classPath(), MainEnvironmentTest.class.getName(), "sweep", "--backend", "socket", "--ranks", "1",
                "-b", "8", "-e", "8", "-n", "1", "-w", "0", "--no-progress", "--out", dir.toString());
        pb.environment().putAll(JVM_ONLY);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
        List<String> lines = out.lines().toList();
        assertEquals(0, p.exitValue(), out);
        String[] codes = lines.get(0).split(" ");
        assertEquals("0", codes[0], "the sweep on the host given saw a variable of its JVM: " + out);
        assertEquals("2", codes[1], "the child's variables did not reach its JVM, so the test proves nothing: " + out);
    }

    /** Two hosts in one JVM: each its own libraries and its own nccl readiness. */
    @Test
    void aSecondHostInTheSameJvmGetsItsOwnAnswers(@TempDir Path dir) throws Exception {
        Path a = fakeNccl(dir.resolve("a"));
        Path b = fakeNccl(dir.resolve("b"));
        Host first = Host.of(Map.of("NCCL_HOME", dir.resolve("a").toString()));
        Host second = Host.of(Map.of("NCCL_HOME", dir.resolve("b").toString()));
        assertEquals(a, first.libraries().nccl().path());
        assertEquals(b, second.libraries().nccl().path());
        // the nccl backend's verdict names the NCCL its own host found, whatever was asked before in this JVM
        String firstReason = Backends.byName("nccl").readiness(null, first).reason();
        String secondReason = Backends.byName("nccl").readiness(null, second).reason();
        assertTrue(firstReason.contains(a.toString()) && !firstReason.contains(b.toString()), firstReason);
        assertTrue(secondReason.contains(b.toString()) && !secondReason.contains(a.toString()), secondReason);
    }

    /** alltoallv's pattern is the one the spec carries, not a process-wide setting. */
    @Test
    void alltoallvsPatternIsTheSpecsSpread() {
        // 4 ranks, 64 elements of 4 bytes per peer: spread 0 is uniform, unset fully distance-weighted (nccl-tests')
        AllToAllVPattern uniform = pattern("0");
        assertEquals(64, uniform.count(0, 0));
        assertEquals(64, uniform.count(0, 3));
        AllToAllVPattern weighted = pattern(null);
        assertEquals(0, weighted.count(0, 0), "distance 0 gets nothing");
        // distance d gets d x 1024 / 6 bytes, rounded down to 16: 160 and 336 bytes
        assertEquals(40, weighted.count(0, 1));
        assertEquals(84, weighted.count(0, 2));
    }

    /**
     * Two sweeps in one JVM, the first on a host with NCCL_TESTS_ALLTOALLV_SPREAD=0: each result records its own host's
     * spread (the second none), as the spec carries it to every rank.
     */
    @Test
    void theSpreadIsRecordedInTheSpecOnlyWhereItIsSet(@TempDir Path dir) throws Exception {
        JsonNode set = sweep(dir.resolve("set.json"), Map.of("NCCL_TESTS_ALLTOALLV_SPREAD", "0"));
        assertEquals("0", set.findValue("alltoallv_spread").asText(), set.toString());
        JsonNode unset = sweep(dir.resolve("unset.json"), Map.of());
        assertNull(unset.findValue("alltoallv_spread"), unset.toString());
    }

    private static JsonNode sweep(Path json, Map<String, String> env) throws Exception {
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"sweep", "--backend", "socket", "--ranks", "2", "--collective", "alltoallv", "-b", "1K",
                "-e", "1K", "-n", "1", "-w", "0", "--no-progress", "--json", json.toString()},
                new PrintWriter(new StringWriter()), new PrintWriter(err), Host.of(env));
        assertEquals(0, code, err.toString());
        return Json.mapper().readTree(json.toFile());
    }

    private static AllToAllVPattern pattern(String spread) {
        RunSpec spec = OnHost.<SweepCommand>parsed("sweep", Map.of(), "--collective", "alltoallv").resolve();
        RunSpec withSpread = spec.withNcclTests(spec.ncclTests().withEnvironment(null, spread));
        return AllToAllVPattern.of(withSpread.collective("alltoallv"), 64, 4, 4);
    }

    private static Path fakeNccl(Path home) throws Exception {
        Path lib = Files.createDirectories(home.resolve("lib")).resolve("libnccl.so.2");
        Files.writeString(lib, "");
        return lib;
    }
}
