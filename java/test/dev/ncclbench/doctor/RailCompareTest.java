package dev.ncclbench.doctor;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.SnapshotJson;
import dev.ncclbench.finding.FailOn;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.output.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `doctor --compare` across nodes, rail by rail: the odd node and rail named exactly, with the value the other nodes
 * agree on; nothing said about nodes whose rails agree.
 */
class RailCompareTest {
    /** Saved snapshots of these fixtures, each under the hostname given (as a fleet's nodes would be). */
    private static List<Path> fleet(Path dir, String... hostAndTree) {
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < hostAndTree.length; i += 2) {
            HostSnapshot s = RailTrees.snapshot(hostAndTree[i + 1]);
            HostSnapshot named = s.toBuilder().hostname(hostAndTree[i]).build();
            Path file = dir.resolve(hostAndTree[i] + ".json");
            SnapshotJson.save(named, file);
            out.add(file);
        }
        return out;
    }

    @Test
    void oneNodesRailAtHdrAmongNdrNodesIsNamedAndNothingElse(@TempDir Path dir) throws Exception {
        HostComparison c = HostComparison.of(fleet(dir, "node1", "h100-8x8-healthy", "node2", "h100-8x8-healthy-capture",
                "node3", "h100-8x8-healthy", "node7", "h100-port-hdr"), Set.of());
        List<Finding> rails = c.findings().stream().filter(f -> f.ruleId().equals("NODES-RAILS-DIFFER")).toList();
        assertEquals(1, rails.size(), rails.toString());
        assertEquals("node7 rail 3 (mlx5_5:1): rate 200 Gb/sec (4X HDR) where 3 other nodes have 400 Gb/sec (4X NDR)",
                rails.get(0).title());
        assertEquals(Severity.ERROR, rails.get(0).severity());
        assertTrue(rails.get(0).remedy().contains("drain node7 until rail 3 matches the others"), rails.get(0).remedy().toString());
        StringWriter text = new StringWriter();
        c.write(new PrintWriter(text));
        assertTrue(text.toString().contains("node7  0: 400 IB | 1: 400 IB | 2: 400 IB | 3: 200 IB (trained down) | 4: 400 IB"),
                text.toString());
        JsonNode doc = Json.mapper().readTree(c.json(FailOn.ERROR));
        assertEquals(4, doc.path("rails").size());
        JsonNode node7 = doc.path("rails").get(3);
        assertEquals("node7", node7.path("host").asText());
        assertEquals("200 Gb/sec (4X HDR)", node7.path("rails").get(3).path("rate").asText());
        assertEquals("trained down", node7.path("rails").get(3).path("verdict").asText());
    }

    @Test
    void betweenTwoNodesTheSlowerDownOrEthernetOneIsTheOddOne(@TempDir Path dir) {
        List<Finding> f = HostComparison.of(fleet(dir, "a", "h100-8x8-healthy", "b", "h100-port-ethernet"), Set.of()).findings()
                .stream().filter(x -> x.ruleId().equals("NODES-RAILS-DIFFER")).toList();
        assertEquals(List.of("b rail 5 (mlx5_9:1): link layer Ethernet where the other node has InfiniBand"),
                f.stream().map(Finding::title).toList());
        List<String> down = HostComparison.of(fleet(dir, "c", "h100-ports-down", "d", "h100-8x8-healthy"), Set.of())
                .findings().stream().filter(x -> x.ruleId().equals("NODES-RAILS-DIFFER")).map(Finding::title).toList();
        assertEquals(List.of("c rail 2 (mlx5_4:1): state DOWN / Polling where the other node has up",
                "c rail 6 (mlx5_10:1): state DOWN / Disabled where the other node has up"), down);
    }

    @Test
    void aNodeWhoseNicLeftTheBusShowsAsAFartherRail(@TempDir Path dir) {
        List<Finding> f = HostComparison.of(fleet(dir, "n1", "h100-8x8-healthy", "n2", "h100-8x8-healthy", "n12",
                "h100-nic-missing"), Set.of()).findings().stream().filter(x -> x.ruleId().equals("NODES-RAILS-DIFFER")).toList();
        assertEquals(1, f.size(), f.toString());
        assertEquals("n12 rail 7 (mlx5_6:1, mlx5_9:1, mlx5_10:1): distance PHB where 2 other nodes have PIX", f.get(0).title());
        assertEquals(Severity.WARNING, f.get(0).severity());
    }

    @Test
    void identicalNodesAgreeWhicheverFormTheirTreeCameIn(@TempDir Path dir) {
        assertEquals(List.of(), HostComparison.of(fleet(dir, "x", "h100-8x8-healthy", "y", "h100-8x8-healthy-capture"),
                Set.of()).findings());
    }
}
