package dev.ncclbench.fleet;

import dev.ncclbench.baseline.SizeKey;
import dev.ncclbench.baseline.SizeSamples;

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
    /** Per-iteration samples per group (0: none, busbw only), each iteration off by up to iterNoise. */
    int iterations;
    double iterNoise;

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
        List<List<SizeSamples>> samples = new ArrayList<>();
        for (Group g : plan.groups()) {
            if (g.members().stream().anyMatch(dead::contains)) {
                bw.add(Double.NaN);
                err.add("lost a peer");
                samples.add(null);
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
            double level = v * (1 - noise * rng.nextDouble());
            bw.add(level);
            err.add(null);
            samples.add(iterations == 0 ? null : List.of(samples(level)));
        }
        return new Outcome(bw, err, lost, samples);
    }

    /** Times of a 16 MiB all_reduce at busbw {@code level}: busbw x time is a constant, 1e6 GB/s x us here. */
    private SizeSamples samples(double level) {
        double[] us = new double[iterations];
        for (int i = 0; i < iterations; i++) {
            us[i] = 1e6 / (level * (1 - iterNoise * rng.nextDouble()));
        }
        return new SizeSamples(new SizeKey("all_reduce", 16L << 20, "float", "sum", -1), List.of(us), 1e6, List.of());
    }

    SearchResult search(SearchOptions o) {
        return Search.run(hosts(nodes), o, this, Map.of(), r -> { });
    }

    SearchResult search(SearchOptions o, FleetBaseline baseline) {
        return Search.run(hosts(nodes), o, this, Map.of(), r -> { }, baseline);
    }
}
