package dev.ncclbench.fleet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A model of a fabric for the pure planner and judge: each node sends at its rate, each link carries a factor,
 * a node's rate is shared among the groups it runs at once, and every result carries noise. Not a stand-in for
 * the real backend (the lab runs that); the search's logic is what these tests pin.
 */
final class SimulatedFabric implements RoundRunner {
    final int nodes;
    final double[] rate;
    final Map<Long, Double> linkFactor = new HashMap<>();
    final Set<Integer> slowInGroupsOnly = new HashSet<>();
    /** Rank to the round in which it dies (killed at the start of that round). */
    final Map<Integer, Integer> diesInRound = new HashMap<>();
    final double noise;
    private final Random rng;
    final Set<Integer> dead = new HashSet<>();
    final List<RoundPlan> seen = new ArrayList<>();

    SimulatedFabric(int nodes, double noise, long seed) {
        this.nodes = nodes;
        this.rate = new double[nodes];
        java.util.Arrays.fill(rate, 10.0);
        this.noise = noise;
        this.rng = new Random(seed);
    }

    SimulatedFabric slowNode(int r, double fraction) {
        rate[r] *= fraction;
        return this;
    }

    SimulatedFabric badLink(int a, int b, double factor) {
        linkFactor.put(key(a, b), factor);
        return this;
    }

    static long key(int a, int b) {
        return (long) Math.min(a, b) << 32 | Math.max(a, b);
    }

    static List<String> hosts(int n) {
        List<String> h = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            h.add("node" + i);
        }
        return h;
    }

    @Override
    public Outcome run(RoundPlan plan) {
        seen.add(plan);
        Map<Integer, String> lost = new HashMap<>();
        diesInRound.forEach((r, round) -> {
            if (round == plan.round() && dead.add(r)) {
                lost.put(r, "killed in round " + round);
            }
        });
        Map<Integer, Integer> load = plan.loads();
        List<Double> bw = new ArrayList<>();
        List<String> err = new ArrayList<>();
        for (Group g : plan.groups()) {
            if (g.members().stream().anyMatch(dead::contains)) {
                bw.add(Double.NaN);
                err.add("lost a peer");
                continue;
            }
            double v = Double.MAX_VALUE;
            for (int r : g.members()) {
                double own = rate[r] / load.get(r);
                if (g.size() > 2 && slowInGroupsOnly.contains(r)) {
                    own *= 0.3;
                }
                v = Math.min(v, own);
            }
            for (int a : g.members()) {
                for (int b : g.members()) {
                    if (a < b) {
                        v *= linkFactor.getOrDefault(key(a, b), 1.0);
                    }
                }
            }
            bw.add(v * (1 - noise * rng.nextDouble()));
            err.add(null);
        }
        return new Outcome(bw, err, lost);
    }

    SearchResult search(SearchOptions o) {
        return Search.run(hosts(nodes), o, this, Map.of(), r -> { });
    }
}
