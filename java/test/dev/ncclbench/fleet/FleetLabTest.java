package dev.ncclbench.fleet;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lab, smaller: six namespaces on one bridge, each a node running its own JVM, one node at a quarter of the
 * rate, one other pair's path cut to a fortieth, and a third node killed one second into round one. fleet must
 * name exactly the slow node, the killed one (unreachable) and the bad link, and exit 6. Needs root (namespaces,
 * tc); skipped with the reason otherwise.
 */
@Tag("lab")
class FleetLabTest {
    @TempDir
    Path dir;

    static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    static boolean root() {
        try {
            Process p = new ProcessBuilder("id", "-u").start();
            String uid = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 && uid.equals("0");
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    static boolean has(String tool) {
        return Files.isExecutable(Path.of("/usr/sbin", tool)) || Files.isExecutable(Path.of("/sbin", tool))
                || Files.isExecutable(Path.of("/usr/bin", tool));
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void namesTheSlowNodeTheBadLinkAndTheKilledNode() throws Exception {
        Assumptions.assumeTrue(root(), "needs root: network namespaces and tc");
        Assumptions.assumeTrue(has("ip") && has("tc"), "needs iproute2 (ip, tc)");
        Path log = dir.resolve("lab.log");
        ProcessBuilder pb = new ProcessBuilder(List.of("bash", "scripts/lab/fleet.sh", "--prefix", "fleetci", "--nodes", "6",
                "--slow", "1", "--bad-link", "2-4", "--kill", "5", "--out", dir.resolve("run").toString(), "--round-timeout", "20", "--sizes", "1M"));
        pb.environment().put("FLEET_JAVA_CP", classPath());
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        boolean done = p.waitFor(140, TimeUnit.SECONDS);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            new ProcessBuilder("bash", "scripts/lab/fleet.sh", "--prefix", "fleetci", "--cleanup").start().waitFor();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done, "the lab did not finish:\n" + out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("check: nodes named slow or unreachable: fleetci-1,fleetci-5 (expected fleetci-1,fleetci-5)"), out);
        assertTrue(out.contains("check: links named bad: fleetci-2-fleetci-4"), out);
        assertTrue(out.contains("check: exit 6 (expected 6)"), out);
        assertTrue(out.contains("PASS"), out);
    }

    /** Issue 31: a node that never starts is named unreachable (from --node-list), drained, and fleet exits 6. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void namesANodeThatNeverJoined() throws Exception {
        Assumptions.assumeTrue(root(), "needs root: network namespaces and tc");
        Assumptions.assumeTrue(has("ip") && has("tc"), "needs iproute2 (ip, tc)");
        Path log = dir.resolve("never.log");
        ProcessBuilder pb = new ProcessBuilder(List.of("bash", "scripts/lab/fleet.sh", "--prefix", "fleetnv", "--nodes", "4",
                "--never", "3", "--out", dir.resolve("never").toString(), "--round-timeout", "8", "--sizes", "1M"));
        pb.environment().put("FLEET_JAVA_CP", classPath());
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        boolean done = p.waitFor(110, TimeUnit.SECONDS);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            new ProcessBuilder("bash", "scripts/lab/fleet.sh", "--prefix", "fleetnv", "--cleanup").start().waitFor();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done, "the lab did not finish:\n" + out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("fleetnv-3 (rank 3) never joined the search"), out);
        assertTrue(out.contains("check: drain.txt: fleetnv-3 (expected fleetnv-3)"), out);
        assertTrue(out.contains("check: exit 6 (expected 6)"), out);
        assertTrue(Files.exists(dir.resolve("never").resolve("fleet.json")), out);
    }
}
