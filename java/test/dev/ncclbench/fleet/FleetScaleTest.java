package dev.ncclbench.fleet;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The planner and judge at 1024 nodes on the simulated fabric: three slow nodes and five bad links found in at
 * most 12 rounds over 200 seeds, no good node or link accused; and how the rounds grow with N (printed, with a
 * least-squares fit of rounds against log2 N). Timing is printed, not asserted (house rule: no timed assertions).
 */
class FleetScaleTest {

    /** A fabric of n nodes with {@code slow} slow nodes and {@code bad} bad links, all on distinct nodes. */
    record Case(SimulatedFabric fabric, Set<Integer> slow, Set<Long> bad) {
    }

    static Case fabric(int n, int slow, int bad, long seed) {
        Random rng = new Random(seed);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        java.util.Collections.shuffle(order, rng);
        SimulatedFabric f = new SimulatedFabric(n, 0.3, seed);
        Set<Integer> s = new TreeSet<>();
        Set<Long> l = new HashSet<>();
        int k = 0;
        for (int i = 0; i < slow; i++) {
            int r = order.get(k++);
            f.slowNode(r, 0.25);
            s.add(r);
        }
        for (int i = 0; i < bad; i++) {
            int a = order.get(k++);
            int b = order.get(k++);
            f.badLink(a, b, 0.1);
            l.add(SimulatedFabric.key(a, b));
        }
        return new Case(f, s, l);
    }

    static SearchOptions options(int n, long seed) {
        return new SearchOptions(n <= 16 ? Survey.ALL : Survey.BATCHES, 2, 12, SearchOptions.DEFAULT_MARGIN, OptionalDouble.empty(), seed);
    }

    static Set<Long> badLinks(SearchResult r) {
        Set<Long> out = new HashSet<>();
        r.verdicts().badLinks().forEach(x -> out.add(SimulatedFabric.key(x.a(), x.b())));
        return out;
    }

    /** 200 (the count) with -Dfleet.scale.seeds=200; CI runs 3, about 7 s each on 2 cores. */
    static final int SEEDS = Integer.getInteger("fleet.scale.seeds", 3);

    @Test
    void threeSlowNodesAndFiveBadLinksAmong1024Nodes() {
        int worst = 0;
        int least = Integer.MAX_VALUE;
        long planNanos = 0;
        long maxPlan = 0;
        long planCpu = 0;
        long maxCpu = 0;
        long rounds = 0;
        long start = System.nanoTime();
        List<String> wrong = new ArrayList<>();
        int accusedNodes = 0;
        int accusedLinks = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            Case c = fabric(1024, 3, 5, seed);
            TimedRunner timed = new TimedRunner(c.fabric());
            SearchResult r = Search.run(SimulatedFabric.hosts(1024), options(1024, seed), timed, java.util.Map.of(), x -> { });
            Set<Integer> named = new TreeSet<>(r.verdicts().badNodes().stream().map(NodeVerdict::rank).toList());
            Set<Long> links = badLinks(r);
            // every seed runs, and the wrong ones are named together at the end: one failure does not hide the rest
            accusedNodes += (int) named.stream().filter(x -> !c.slow().contains(x)).count();
            accusedLinks += (int) links.stream().filter(x -> !c.bad().contains(x)).count();
            if (!c.slow().equals(named) || !c.bad().equals(links) || r.rounds() > 12) {
                wrong.add("seed " + seed + ": slow " + named + " (is " + c.slow() + "), bad links " + links.size()
                        + " (is " + c.bad().size() + "), rounds " + r.rounds());
            }
            worst = Math.max(worst, r.rounds());
            least = Math.min(least, r.rounds());
            rounds += r.rounds();
            planNanos += timed.betweenRounds;
            maxPlan = Math.max(maxPlan, timed.maxBetween);
            planCpu += timed.cpuBetween;
            maxCpu = Math.max(maxCpu, timed.maxCpu);
        }
        System.out.printf(Locale.ROOT, "fleet scale: 1024 nodes, 3 slow + 5 bad links, %d seeds; rounds min %d, mean %.2f, worst %d; judging a round and planning the next: thread CPU"
                        + " %.0f ms (mean), %.0f ms (worst), wall %.0f ms (mean), %.0f ms (worst); %.1f s in all%n",
                SEEDS, least, rounds / (double) SEEDS, worst, planCpu / 1e6 / (rounds - SEEDS), maxCpu / 1e6,
                planNanos / 1e6 / (rounds - SEEDS), maxPlan / 1e6, (System.nanoTime() - start) / 1e9);
        System.out.printf(Locale.ROOT, "fleet scale: %d of %d seeds exact; good nodes accused %d, good links accused %d%n",
                SEEDS - wrong.size(), SEEDS, accusedNodes, accusedLinks);
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @Test
    void roundsGrowAsLogN() {
        int[] sizes = {8, 64, 256, 1024};
        double[] mean = new double[sizes.length];
        StringBuilder line = new StringBuilder("fleet scale: rounds by N (1 slow node + 1 bad link, " + SEEDS
                + " seeds each, min/mean/max):");
        for (int i = 0; i < sizes.length; i++) {
            int n = sizes[i];
            long total = 0;
            int lo = Integer.MAX_VALUE;
            int hi = 0;
            for (long seed = 1; seed <= SEEDS; seed++) {
                Case c = fabric(n, 1, 1, seed);
                SearchResult r = c.fabric().search(options(n, seed));
                assertEquals(c.slow(), new TreeSet<>(r.verdicts().badNodes().stream().map(NodeVerdict::rank).toList()),
                        "n " + n + " seed " + seed);
                assertEquals(c.bad(), badLinks(r), "n " + n + " seed " + seed);
                total += r.rounds();
                lo = Math.min(lo, r.rounds());
                hi = Math.max(hi, r.rounds());
            }
            mean[i] = total / (double) SEEDS;
            line.append(String.format(Locale.ROOT, " N=%d %d/%.2f/%d", n, lo, mean[i], hi));
        }
        // least squares: rounds = a + b log2 N
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (int i = 0; i < sizes.length; i++) {
            double x = Math.log(sizes[i]) / Math.log(2);
            sx += x;
            sy += mean[i];
            sxx += x * x;
            sxy += x * mean[i];
        }
        int k = sizes.length;
        double b = (k * sxy - sx * sy) / (k * sxx - sx * sx);
        double a = (sy - b * sx) / k;
        System.out.printf(Locale.ROOT, "%s; fit: rounds = %.2f + %.3f log2 N%n", line, a, b);
        assertTrue(mean[3] <= 12, line.toString());
    }

    /**
     * Counts the time the search spends between rounds (judging a round and planning the next), not in the simulated
     * fabric: wall time, and this thread's CPU time, which other processes on a shared machine do not inflate.
     */
    static final class TimedRunner implements RoundRunner {
        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
        private final RoundRunner inner;
        long betweenRounds;
        long maxBetween;
        long cpuBetween;
        long maxCpu;
        private long last = -1;
        private long lastCpu;

        TimedRunner(RoundRunner inner) {
            this.inner = inner;
        }

        @Override
        public Outcome run(RoundPlan plan) {
            if (last >= 0) {
                long d = System.nanoTime() - last;
                long c = THREADS.getCurrentThreadCpuTime() - lastCpu;
                betweenRounds += d;
                maxBetween = Math.max(maxBetween, d);
                cpuBetween += c;
                maxCpu = Math.max(maxCpu, c);
            }
            Outcome o = inner.run(plan);
            last = System.nanoTime();
            lastCpu = THREADS.getCurrentThreadCpuTime();
            return o;
        }
    }
}
