package dev.ncclbench.fleet;

import dev.ncclbench.NcclbenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fleet --baseline on the simulated fabric: a pair is judged against its recorded rate with the gate's test, which
 * catches a link that lost 40% (the relative rule, at half the best pairs, does not); a pair without a recorded rate
 * falls back to the relative rule and is counted as such; a baseline measured otherwise is refused.
 */
class FleetBaselineTest {
    @TempDir
    Path dir;

    private static final Map<String, String> FP = Map.of("backend", "socket", "collectives", "all_reduce",
            "sizes_bytes", "16777216", "type", "float", "op", "sum");

    private static SimulatedFabric fabric(long seed) {
        SimulatedFabric f = new SimulatedFabric(8, 0.02, seed);
        f.iterations = 10;
        f.iterNoise = 0.03;
        return f;
    }

    private static SearchOptions opts(long seed) {
        // every pair alone (load 1) in 7 rounds: a baseline has a line for a pair at the load it ran under, and the
        // targeted rounds run pairs alone, so a baseline recorded this way covers every result of a later search
        return new SearchOptions(Survey.ROUND_ROBIN, 2, 12, SearchOptions.DEFAULT_MARGIN, OptionalDouble.empty(), seed);
    }

    private FleetBaseline recorded(long seed) {
        SearchResult healthy = fabric(seed).search(opts(seed));
        assertTrue(!healthy.verdicts().anyBad(), healthy.verdicts().toString());
        Path file = FleetBaseline.of("lab", healthy, SimulatedFabric.hosts(8), FP).write(dir);
        assertTrue(Files.isRegularFile(file));
        return FleetBaseline.read(dir, "lab");
    }

    @Test
    void aLinkAt60PercentOfItsRecordedRateIsBadOnlyAgainstTheBaseline() {
        for (long seed = 1; seed <= 5; seed++) {
            FleetBaseline b = recorded(seed);
            assertEquals(28, b.pairs().size(), "every pair of 8 nodes recorded alone");
            SearchResult relative = fabric(seed + 100).badLink(2, 5, 0.6).search(opts(seed));
            assertTrue(relative.verdicts().badLinks().isEmpty(), "60% is above the relative margin: " + relative.verdicts());
            SearchResult against = fabric(seed + 100).badLink(2, 5, 0.6).search(opts(seed), b);
            assertEquals(List.of("2-5"), against.verdicts().badLinks().stream().map(l -> l.a() + "-" + l.b()).toList(),
                    "seed " + seed + ": " + against.verdicts());
            assertTrue(against.verdicts().badNodes().isEmpty(), against.verdicts().toString());
            BaselineJudge j = against.evidence().baseline();
            assertTrue(j.judged > 0, "results judged by the baseline");
        }
    }

    @Test
    void pairsWithoutARecordedRateFallBackToRelativeAndSaySo() {
        FleetBaseline b = recorded(7);
        // node 3 was not there when the baseline was recorded: its pairs have no recorded rate
        List<String> hosts = new java.util.ArrayList<>(SimulatedFabric.hosts(8));
        hosts.set(3, "spare");
        SimulatedFabric f = fabric(8).slowNode(3, 0.25);
        SearchResult r = Search.run(hosts, opts(8), f, Map.of(), x -> { }, b);
        assertEquals(List.of(3), r.verdicts().badNodes().stream().map(NodeVerdict::rank).toList(), r.verdicts().toString());
        assertTrue(r.evidence().baseline().without >= 7, "node 3's seven pairs have no baseline");
        FleetDocument doc = new FleetDocument(hosts, opts(8), new FleetSettings(List.of(16L << 20), false, 5, 1, 60, 0, "socket",
                1, null), "socket", null, r, b);
        String judgement = doc.json().search().judgement();
        assertTrue(judgement.startsWith("judged against baseline lab (recorded "), judgement);
        assertTrue(judgement.contains("no baseline for this pair"), judgement);
        assertEquals("lab", doc.json().search().baseline().name());
    }

    @Test
    void aBaselineMeasuredOtherwiseIsRefusedNamingTheDifference() {
        FleetBaseline b = recorded(3);
        Map<String, String> other = new java.util.TreeMap<>(FP);
        other.put("sizes_bytes", "1048576");
        NcclbenchException e = assertThrows(NcclbenchException.class, () -> b.admit(other));
        assertTrue(e.getMessage().contains("sizes_bytes 16777216 in the baseline, 1048576 now"), e.getMessage());
        NcclbenchException missing = assertThrows(NcclbenchException.class, () -> FleetBaseline.read(dir, "nope"));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
    }
}
