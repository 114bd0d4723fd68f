package dev.ncclbench.fleet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
     * The confirmation rounds: each rail judged slow in the shared rounds, with a node whose verdict on that rail was
     * ok, and nothing else running (the shared rounds load every node's CPUs with all its rails at once, so a healthy
     * rail can read slow there). Usually one round; a suspect whose fine partners are all taken on its rail waits for
     * the next. A suspect with no fine partner at all is not re-measured.
     */
    static List<RoundPlan> confirmation(List<RailVerdict> first, Set<Integer> lost, int firstRound) {
        List<RailVerdict> left = new ArrayList<>(first.stream().filter(v -> v.status() == RailVerdict.Status.SLOW
                && !lost.contains(v.rank()) && !fine(first, v, lost).isEmpty()).toList());
        List<RoundPlan> plans = new ArrayList<>();
        while (!left.isEmpty()) {
            List<Group> groups = new ArrayList<>();
            List<Integer> held = new ArrayList<>();
            Map<Integer, Integer> load = new HashMap<>();
            Set<List<Integer>> busy = new HashSet<>(); // (rank, rail) already in a group of this round
            List<RailVerdict> later = new ArrayList<>();
            for (RailVerdict s : left) {
                Optional<Integer> partner = fine(first, s, lost).stream()
                        .filter(p -> !busy.contains(List.of(p, s.rail())))
                        .min(Comparator.comparingInt(p -> load.getOrDefault(p, 0)));
                if (partner.isEmpty()) {
                    later.add(s);
                    continue;
                }
                int p = partner.get();
                busy.add(List.of(p, s.rail()));
                load.merge(p, 1, Integer::sum);
                load.merge(s.rank(), 1, Integer::sum);
                groups.add(Group.pair(s.rank(), p, Purpose.RAIL, "rail " + s.rail() + " again"));
                held.add(s.rail());
            }
            plans.add(new RoundPlan(firstRound + plans.size(), groups, held));
            left = later;
        }
        return plans;
    }

    /** The reachable nodes whose verdict on the suspect's rail was ok. */
    private static List<Integer> fine(List<RailVerdict> first, RailVerdict suspect, Set<Integer> lost) {
        return first.stream().filter(v -> v.rail() == suspect.rail() && v.rank() != suspect.rank()
                && v.status() == RailVerdict.Status.OK && !lost.contains(v.rank())).map(RailVerdict::rank).toList();
    }

    /**
     * Runs the rail rounds, judges each rail, measures the rails judged slow again in rounds of their own, and names
     * only those slow both times.
     *
     * @param lostBefore ranks the node rounds lost: their rails are not measured
     * @param onRound    told after each rail round (for progress lines)
     */
    static RailResult run(List<String> hosts, List<List<NodeRail>> rails, Set<Integer> lostBefore, int firstRound,
                          RoundRunner runner, RailJudge judge, Consumer<List<RailMeasurement>> onRound, Consumer<RoundPlan> onBegin) {
        Set<Integer> lost = new TreeSet<>(lostBefore);
        List<RoundPlan> plans = new ArrayList<>(plan(rails, lost, firstRound));
        List<RailMeasurement> shared = new ArrayList<>();
        for (RoundPlan p : plans) {
            shared.addAll(measure(p, runner, lost, onRound, onBegin));
        }
        Set<Integer> lostShared = Set.copyOf(lost);
        List<RailVerdict> first = judge.judge(hosts, rails, shared, lostShared);
        List<RoundPlan> again = confirmation(first, lostShared, firstRound + plans.size());
        List<RailMeasurement> second = new ArrayList<>();
        for (RoundPlan p : again) {
            second.addAll(measure(p, runner, lost, onRound, onBegin));
        }
        plans.addAll(again);
        List<RailMeasurement> all = new ArrayList<>(shared);
        all.addAll(second);
        return new RailResult(rails, plans, all, judge.confirm(hosts, rails, shared, lostShared, first, second),
                judge.judgement());
    }

    private static List<RailMeasurement> measure(RoundPlan p, RoundRunner runner, Set<Integer> lost,
                                                 Consumer<List<RailMeasurement>> onRound, Consumer<RoundPlan> onBegin) {
        onBegin.accept(p);
        RoundRunner.Outcome out = runner.run(p);
        lost.addAll(out.lost().keySet());
        List<RailMeasurement> round = new ArrayList<>();
        for (int i = 0; i < p.groups().size(); i++) {
            Group g = p.groups().get(i);
            round.add(new RailMeasurement(p.round(), p.rail(i), g.members().get(0), g.members().get(1),
                    out.busbw().get(i), out.errors().get(i)));
        }
        onRound.accept(round);
        return round;
    }
}
