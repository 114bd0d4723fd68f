package dev.ncclbench.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The rail round, after the node rounds: rail r of one node with rail r of another, each group's traffic held to that
 * rail, every rail of a pairing at once (each on its own NIC, as a job uses them). Each rail's nodes are paired by the
 * circle method, twice (three times for an odd count), so that a rail is measured with two partners and a slow result
 * can be laid at one end; two nodes alone have one pairing, and a slow rail between them stays undecided.
 */
final class RailSearch {
    private RailSearch() {
    }

    /** The pairings a rail of m nodes gets: one for two nodes, two for an even count, three for an odd one. */
    static int pairings(int m) {
        return m < 2 ? 0 : m == 2 ? 1 : m % 2 == 0 ? 2 : 3;
    }

    /**
     * The rail rounds, numbered from {@code firstRound}: round k holds every rail's k-th pairing of the reachable nodes
     * that have that rail up.
     */
    static List<RoundPlan> plan(List<List<NodeRail>> rails, Set<Integer> lost, int firstRound) {
        int width = rails.stream().mapToInt(List::size).max().orElse(0);
        List<List<Integer>> members = new ArrayList<>();
        int rounds = 0;
        for (int r = 0; r < width; r++) {
            List<Integer> m = new ArrayList<>();
            for (int rank = 0; rank < rails.size(); rank++) {
                if (!lost.contains(rank) && rails.get(rank).size() > r && rails.get(rank).get(r).up()) {
                    m.add(rank);
                }
            }
            members.add(m);
            rounds = Math.max(rounds, pairings(m.size()));
        }
        List<RoundPlan> plans = new ArrayList<>();
        for (int k = 0; k < rounds; k++) {
            List<Group> groups = new ArrayList<>();
            List<Integer> held = new ArrayList<>();
            for (int r = 0; r < width; r++) {
                List<Integer> m = members.get(r);
                if (k >= pairings(m.size())) {
                    continue;
                }
                for (int[] p : circle(m, k)) {
                    groups.add(Group.pair(p[0], p[1], Purpose.RAIL, "rail " + r));
                    held.add(r);
                }
            }
            plans.add(new RoundPlan(firstRound + k, groups, held));
        }
        return plans;
    }

    /** The k-th matching of the circle method over {@code m} (a bye for one node when the count is odd). */
    static List<int[]> circle(List<Integer> m, int k) {
        List<Integer> l = new ArrayList<>(m);
        if (l.size() % 2 == 1) {
            l.add(-1);
        }
        int n = l.size();
        int[] at = new int[n];
        at[0] = l.get(0);
        for (int i = 1; i < n; i++) {
            at[i] = l.get(1 + (i - 1 + k) % (n - 1));
        }
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i < n / 2; i++) {
            int a = at[i];
            int b = at[n - 1 - i];
            if (a >= 0 && b >= 0) {
                out.add(new int[] {a, b});
            }
        }
        return out;
    }

    /**
     * Runs the rail rounds and judges each rail.
     *
     * @param lostBefore ranks the node rounds lost: their rails are not measured
     * @param onRound    told after each rail round (for progress lines)
     */
    static RailResult run(List<String> hosts, List<List<NodeRail>> rails, Set<Integer> lostBefore, int firstRound,
                          RoundRunner runner, RailJudge judge, Consumer<List<RailMeasurement>> onRound, Consumer<RoundPlan> onBegin) {
        Set<Integer> lost = new TreeSet<>(lostBefore);
        List<RoundPlan> plans = plan(rails, lost, firstRound);
        List<RailMeasurement> all = new ArrayList<>();
        for (RoundPlan p : plans) {
            onBegin.accept(p);
            RoundRunner.Outcome out = runner.run(p);
            lost.addAll(out.lost().keySet());
            List<RailMeasurement> round = new ArrayList<>();
            for (int i = 0; i < p.groups().size(); i++) {
                Group g = p.groups().get(i);
                round.add(new RailMeasurement(p.round(), p.rail(i), g.members().get(0), g.members().get(1),
                        out.busbw().get(i), out.errors().get(i)));
            }
            all.addAll(round);
            onRound.accept(round);
        }
        return new RailResult(rails, plans, all, judge.judge(hosts, rails, all, lost), judge.judgement());
    }
}
