package dev.ncclbench.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ncclbench.output.Json;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rail lab (scripts/lab/fleet-rails.sh): five namespaces of four rails each, one veth pair a rail into a bridge per
 * rail, every link tbf-shaped; one rail of one node at half its rate and another rail set down, both chosen here at
 * random. fleet must name exactly that node's rail slow and the other down, no other rail, node or link, drain those
 * nodes naming the rail, and exit 6. Needs root (namespaces, tc); skipped with the reason otherwise. Run under
 * flock /work/locks/suite.lock with the other namespace labs.
 */
@Tag("lab")
class FleetRailLabTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 200, unit = TimeUnit.SECONDS)
    void namesExactlyTheSlowRailAndTheDownRailChosenAtRandom() throws Exception {
        Assumptions.assumeTrue(FleetLabTest.root(), "needs root: network namespaces and tc");
        Assumptions.assumeTrue(FleetLabTest.has("ip") && FleetLabTest.has("tc"), "needs iproute2 (ip, tc)");
        int nodes = 5;
        int rails = 4;
        SecureRandom random = new SecureRandom();
        int slowNode = random.nextInt(nodes);
        int slowRail = random.nextInt(rails);
        int downNode;
        int downRail;
        do { // another rail, and not the slow rail's siblings' only judge: any other (node, rail)
            downNode = random.nextInt(nodes);
            downRail = random.nextInt(rails);
        } while (downNode == slowNode && downRail == slowRail);
        Path run = dir.resolve("run");
        Path log = dir.resolve("lab.log");
        List<String> cmd = new ArrayList<>(List.of("bash", "scripts/lab/fleet-rails.sh", "--prefix", "flrci", "--nodes",
                String.valueOf(nodes), "--rails", String.valueOf(rails), "--slow", slowNode + ":" + slowRail,
                "--down", downNode + ":" + downRail, "--out", run.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("FLEET_JAVA_CP", FleetLabTest.classPath());
        pb.redirectErrorStream(true);
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        boolean done = p.waitFor(190, TimeUnit.SECONDS);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            new ProcessBuilder("bash", "scripts/lab/fleet-rails.sh", "--prefix", "flrci", "--cleanup").start().waitFor();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        String planted = "slow flrci-" + slowNode + " rail " + slowRail + ", down flrci-" + downNode + " rail " + downRail;
        assertTrue(done, "the lab did not finish (" + planted + "):\n" + out);
        assertEquals(0, p.exitValue(), planted + "\n" + out);
        assertTrue(out.contains("check: rails named slow: flrci-" + slowNode + ":" + slowRail + " (expected"), out);
        assertTrue(out.contains("check: rails named down: flrci-" + downNode + ":" + downRail + " (expected"), out);
        assertTrue(out.contains("PASS"), out);
        // the same from the JSON, read here rather than trusted from the script: exactly two rails not ok
        JsonNode doc = Json.mapper().readTree(run.resolve("fleet.json").toFile());
        List<String> notOk = new ArrayList<>();
        doc.path("rails").path("verdicts").forEach(v -> {
            if (!v.path("verdict").asText().equals("ok")) {
                notOk.add(v.path("host").asText() + ":" + v.path("rail").asInt() + "=" + v.path("verdict").asText());
            }
        });
        List<String> want = new ArrayList<>(List.of("flrci-" + slowNode + ":" + slowRail + "=slow",
                "flrci-" + downNode + ":" + downRail + "=down"));
        want.sort(null);
        notOk.sort(null);
        assertEquals(want, notOk, planted + "\n" + out);
        assertEquals(nodes * rails, doc.path("rails").path("verdicts").size(), out);
        assertEquals("bad", doc.path("verdict").asText());
        String drain = Files.readString(run.resolve("drain.txt"), StandardCharsets.UTF_8);
        // one comment line a node: when the down rail is the same node's, its rails are joined with "; "
        int node = slowNode;
        String rail = "rail " + slowRail + " (rail" + (slowRail + 1) + "): ";
        assertTrue(drain.lines().anyMatch(l -> l.startsWith("# flrci-" + node + ": ") && l.contains(rail)), drain);
        String html = Files.readString(run.resolve("fleet.html"), StandardCharsets.UTF_8);
        assertTrue(html.contains("Rails"), "the report has the rails' heat map");
    }
}
