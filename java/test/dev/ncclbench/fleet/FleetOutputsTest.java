package dev.ncclbench.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The files rank 0 writes, from a known search: the verdicts land where a tool looks for them. */
class FleetOutputsTest {
    @TempDir
    Path dir;

    private static FleetDocument document(List<String> hosts) {
        SimulatedFabric f = new SimulatedFabric(hosts.size(), 0.2, 7).slowNode(3, 0.25).badLink(1, 6, 0.05);
        SearchOptions o = new SearchOptions(Survey.ALL, 2, 4, 0.5, OptionalDouble.empty(), 7);
        SearchResult r = Search.run(hosts, o, f, Map.of(), x -> { });
        FleetSettings s = new FleetSettings(List.of(2L << 20), false, 3, 1, 30, 0, "socket", 2, null);
        return new FleetDocument(hosts, o, s, "socket", null, r);
    }

    /**
     * With a rail round (FleetGolden: rail 1 of node2 at half, rail 0 of node3 down): every file names the rail, and
     * drain.txt names the rail above its node in a comment, the names alone for scontrol.
     */
    @Test
    void everyFileNamesTheBadRails() throws Exception {
        FleetOutputs.Paths p = new FleetOutputs.Paths(null, null, null, null, null).under(dir.resolve("rails"));
        FleetOutputs.write(p, FleetGolden.withRails(), "rails-run");
        String drain = Files.readString(p.drain());
        assertTrue(drain.startsWith(FleetOutputs.DRAIN_HEADER + "rails-run\n"), drain);
        assertTrue(drain.contains("# node2: rail 1 (eth2): 12.0 MB/s, siblings 24.0 MB/s (50% of its siblings' median;"), drain);
        assertTrue(drain.contains("# node3: rail 0 (eth1) is down: eth1 is down (not RUNNING)"), drain);
        assertEquals(List.of("node3", "node2"), drain.lines().filter(l -> !l.startsWith("#")).toList());
        String junit = Files.readString(p.junit());
        assertTrue(junit.contains("name=\"node2 rail 1 (eth2)\"") && junit.contains("type=\"slow\""), junit);
        assertTrue(junit.contains("type=\"down\""), junit);
        String prom = Files.readString(p.prometheus());
        assertTrue(prom.contains("ncclbench_fleet_rail_bad{host=\"node2\",rail=\"1\",nic=\"eth2\",verdict=\"slow\"} 1"), prom);
        assertTrue(prom.contains("ncclbench_fleet_rail_bad{host=\"node0\",rail=\"0\",nic=\"eth1\",verdict=\"ok\"} 0"), prom);
    }

    @Test
    void everyFileSaysTheSameThing() throws Exception {
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        try {
            List<String> hosts = SimulatedFabric.hosts(8);
            FleetDocument doc = document(hosts);
            FleetOutputs.Paths p = new FleetOutputs.Paths(null, null, null, null, null).under(dir.resolve("run"));
            FleetOutputs.write(p, doc, "test-run");

            JsonNode j = new ObjectMapper().readTree(p.json().toFile());
            assertEquals(FleetDocument.KIND, j.get("kind").asText());
            assertEquals("bad", j.get("verdict").asText());
            assertEquals(8, j.get("node_verdicts").size());
            assertEquals("slow", j.get("node_verdicts").get(3).get("verdict").asText());
            assertEquals(List.of("node3"), List.of(j.get("drain").get(0).asText()));
            assertEquals(1, j.get("drain").size());
            List<String> bad = new ArrayList<>();
            j.get("link_verdicts").forEach(l -> {
                if (l.get("verdict").asText().equals("bad")) {
                    bad.add(l.get("a").asText() + "-" + l.get("b").asText());
                }
            });
            assertEquals(List.of("node1-node6"), bad);
            JsonNode m = j.get("matrix").get("ratio");
            assertEquals(8, m.size());
            for (int a = 0; a < 8; a++) {
                assertTrue(m.get(a).get(a).isNull());
                for (int b = 0; b < 8; b++) {
                    assertEquals(m.get(a).get(b).toString(), m.get(b).get(a).toString());
                }
            }
            assertTrue(j.get("rounds_used").asInt() <= 4);

            assertEquals(FleetOutputs.DRAIN_HEADER + "test-run\nnode3\n", Files.readString(p.drain()));

            String html = Files.readString(p.html());
            assertTrue(html.contains("<svg"));
            assertEquals(64, count(html, "<rect "));
            assertTrue(html.contains("node1 - node6: "), "a tooltip per cell");

            Document x = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(p.junit().toFile());
            assertEquals("36", x.getDocumentElement().getAttribute("tests"));
            assertEquals("2", x.getDocumentElement().getAttribute("failures"));

            String prom = Files.readString(p.prometheus());
            assertTrue(prom.contains("ncclbench_fleet_node_bad{host=\"node3\",verdict=\"slow\"} 1\n"), prom);
            assertTrue(prom.contains("ncclbench_fleet_link_bad{a=\"node1\",b=\"node6\",verdict=\"bad\"} 1\n"), prom);
            Matcher num = Pattern.compile("busbw_gbps\\{[^}]*} (\\S+)").matcher(prom);
            assertTrue(num.find());
            Double.parseDouble(num.group(1));
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void namesAreEscapedEverywhere() throws Exception {
        List<String> hosts = new ArrayList<>(SimulatedFabric.hosts(8));
        hosts.set(3, "n<3>&\"q\"");
        FleetDocument doc = document(hosts);
        FleetOutputs.Paths p = new FleetOutputs.Paths(null, null, null, null, null).under(dir);
        FleetOutputs.write(p, doc, "test-run");
        assertTrue(!Files.readString(p.html()).contains("n<3>"));
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(p.junit().toFile());
        assertTrue(Files.readString(p.prometheus()).contains("host=\"n<3>&\\\"q\\\"\""));
    }

    /**
     * What a node says of itself names no other node: a bad node outside the job's node list, one whose name is a host
     * range, and one nobody knows the name of are withheld, each with why; and what is printed as the drain list is
     * what the file holds, in the JSON too.
     */
    @Test
    void onlyTheJobsOwnNodesAreDrainedAndThePrintedListIsTheFiles() throws Exception {
        List<String> hosts = new ArrayList<>(SimulatedFabric.hosts(12));
        SimulatedFabric f = new SimulatedFabric(12, 0.2, 7).slowNode(3, 0.25);
        for (int dies : new int[] {2, 5, 6}) {
            f.diesInRound.put(dies, 1); // unreachable
        }
        hosts.set(5, "gpu[100-163]");
        hosts.set(6, FleetRun.unnamed(6));
        SearchOptions o = new SearchOptions(Survey.ALL, 2, 4, 0.5, OptionalDouble.empty(), 7);
        SearchResult r = Search.run(hosts, o, f, Map.of(), x -> { });
        FleetDocument doc = new FleetDocument(hosts, o, new FleetSettings(List.of(2L << 20), false, 3, 1, 30, 0, "socket", 2,
                null), "socket", null, r);
        assertEquals(List.of(2, 3, 5, 6), r.verdicts().badNodes().stream().map(NodeVerdict::rank).sorted().toList());
        // the launcher's list has node0..node11 but node3 (a name node3's process gave, not the scheduler)
        java.util.Set<String> list = new java.util.HashSet<>(SimulatedFabric.hosts(12));
        list.remove("node3");
        DrainPolicy policy = new DrainPolicy(true, false, java.util.Optional.of(list));
        DrainPolicy.Drain drain = policy.decide(doc);
        assertEquals(List.of("node2"), drain.names());
        assertEquals(Map.of("node3", "not a node of this job (--node-list, or SLURM_JOB_NODELIST)",
                "'gpu[100-163]'", "not one node's name (letters, digits, '.', '-' and '_')",
                "rank 6", "no node name is known (give --node-list)"), drain.withheld());

        FleetOutputs.Paths p = new FleetOutputs.Paths(null, null, null, null, null).under(dir);
        FleetOutputs.write(p, doc, policy, drain, "run-7");
        assertEquals(FleetOutputs.DRAIN_HEADER + "run-7\nnode2\n", Files.readString(p.drain()));
        java.io.StringWriter text = new java.io.StringWriter();
        new FleetText(new java.io.PrintWriter(text), hosts).verdicts(r, null, drain);
        assertTrue(text.toString().contains("\ndrain: node2\nnot drained: "), text.toString());
        JsonNode j = new ObjectMapper().readTree(p.json().toFile());
        assertEquals("[\"node2\"]", j.get("drain").toString());
        assertEquals(3, j.get("drain_withheld").size());
        assertTrue(j.get("drain_withheld_because").asText().contains("node3: not a node of this job"), j.toString());
        // the document's named groups are written flat, in the file's one order (docs/schemas/fleet.schema.json)
        List<String> names = new ArrayList<>();
        j.fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("kind", "schema_version", "verdict", "backend", "nodes", "survey", "group_size", "margin",
                "floor_gbps", "floor_source", "judgement", "sizes_bytes", "collectives", "iters", "round_limit_s", "seed",
                "rounds_used", "max_rounds", "stop_reason", "drain", "node_verdicts", "link_verdicts", "links_measured",
                "links_total", "undecided", "rounds", "matrix", "rendezvous_authenticated", "drain_withheld",
                "drain_withheld_because"), names);
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
