package dev.ncclbench.fleet;

import dev.ncclbench.output.Json;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/** fleet.json from a seeded search over a simulated fabric (for the JSON golden and schema). */
public final class FleetGolden {
    private FleetGolden() {
    }

    public static String document() {
        return Json.prettyText(withRails().json()) + "\n";
    }

    /** The search and its rail round, as fleet keeps them before writing any file. */
    public static FleetDocument withRails() {
        List<String> hosts = SimulatedFabric.hosts(4);
        SimulatedFabric f = new SimulatedFabric(hosts.size(), 0.2, 7).slowNode(3, 0.25);
        SearchOptions o = new SearchOptions(Survey.ALL, 2, 4, 0.5, OptionalDouble.empty(), 7);
        SearchResult r = Search.run(hosts, o, f, Map.of(), x -> { });
        FleetSettings s = new FleetSettings(List.of(2L << 20), false, 3, 1, 30, 0, "socket", 2, null);
        return new FleetDocument(hosts, o, s, "socket", null, r, null, rails(hosts, r));
    }

    /**
     * The rail round after it: two rails a node, rail 1 of the third node at half, rail 0 of the fourth down (a pair's
     * result is the slower end's rate).
     */
    private static RailResult rails(List<String> hosts, SearchResult r) {
        double[][] rate = {{0.024, 0.024}, {0.024, 0.024}, {0.024, 0.012}, {0.024, 0.024}};
        List<List<NodeRail>> rails = new java.util.ArrayList<>();
        for (int n = 0; n < hosts.size(); n++) {
            List<NodeRail> l = new java.util.ArrayList<>();
            for (int k = 0; k < 2; k++) {
                l.add(new NodeRail("eth" + (k + 1), "eth" + (k + 1), "10.1." + k + "." + (n + 1),
                        n == 3 && k == 0 ? "eth1 is down (not RUNNING)" : null));
            }
            rails.add(l);
        }
        RoundRunner fabric = plan -> {
            List<Double> busbw = new java.util.ArrayList<>();
            List<String> errors = new java.util.ArrayList<>();
            for (int i = 0; i < plan.groups().size(); i++) {
                Group g = plan.groups().get(i);
                busbw.add(Math.min(rate[g.members().get(0)][plan.rail(i)], rate[g.members().get(1)][plan.rail(i)]));
                errors.add(null);
            }
            return new RoundRunner.Outcome(busbw, errors, Map.of());
        };
        return RailSearch.run(hosts, rails, java.util.Set.of(), r.rounds() + 1, fabric,
                new RailJudge(x -> java.util.Optional.empty()), x -> { }, x -> { });
    }
}
