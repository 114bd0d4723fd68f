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
        List<String> hosts = SimulatedFabric.hosts(4);
        SimulatedFabric f = new SimulatedFabric(hosts.size(), 0.2, 7).slowNode(3, 0.25);
        SearchOptions o = new SearchOptions(Survey.ALL, 2, 4, 0.5, OptionalDouble.empty(), 7);
        SearchResult r = Search.run(hosts, o, f, Map.of(), x -> { });
        FleetSettings s = new FleetSettings(List.of(2L << 20), false, 3, 1, 30, "socket", 2, null);
        return Json.prettyText(new FleetDocument(hosts, o, s, "socket", null, r).json()) + "\n";
    }
}
