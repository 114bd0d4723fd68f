package dev.ncclbench.fleet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Plans the rounds. Pure: the same evidence and seed plan the same round.
 * <ol>
 * <li>Pass one, the survey ({@link Survey}).</li>
 * <li>Then targeted rounds of disjoint pairs: a slow link between two cleared nodes is measured again alone;
 * every node not yet decided is paired with a cleared node it has not run with (pass two: a slow node is told
 * from a slow link without trying every pair); a node fine only once (unconfirmed) is paired the same way for
 * its confirming result; free cleared nodes pair up on links not yet measured, which gives the round its own
 * reference and covers more links.</li>
 * <li>With a group size above two, once the pairs are settled: groups of that size over the good nodes, then a
 * bisection of each slow group: half its suspects with nodes proven fine at that size.</li>
 * </ol>
 * The search ends when a round would have nothing to decide.
 */
public final class Planner {
    private final SearchOptions options;

    public Planner(SearchOptions options) {
        this.options = options;
    }

    /** Rounds that belong to pass one for {@code alive} nodes. */
    public int surveyRounds(int alive) {
        return switch (options.survey()) {
            case ROUND_ROBIN -> Math.max(1, alive + (alive % 2) - 1);
            case BATCHES -> batchRounds(alive);
            default -> 1;
        };
    }

    /** Rounds of the batched survey: ceil(log2 N) - 3, at least one; each runs ceil((N-1) / rounds) matchings. */
    static int batchRounds(int alive) {
        int log2 = 32 - Integer.numberOfLeadingZeros(Math.max(1, alive - 1));
        return Math.max(1, log2 - 3);
    }

    /** Matchings per round of the batched survey: how many pairs each node is in at once. */
    static int batchWidth(int alive) {
        int matchings = Math.max(1, alive + (alive % 2) - 1);
        int rounds = batchRounds(alive);
        return (matchings + rounds - 1) / rounds;
    }

    public RoundPlan first(List<Integer> alive) {
        return survey(1, alive);
    }

    /** The next round, or null when there is nothing left to decide. */
    public RoundPlan next(int round, Evidence e, Verdicts v, List<Integer> initial) {
        Random rng = new Random(options.seed() * 31 + round);
        List<Integer> alive = initial.stream().filter(e::reachable).toList();
        if (alive.size() < 2) {
            return null;
        }
        if (round <= surveyRounds(initial.size())) {
            RoundPlan p = survey(round, initial);
            List<Group> live = p.groups().stream().filter(g -> g.members().stream().allMatch(e::reachable)).toList();
            return live.isEmpty() ? null : new RoundPlan(round, live);
        }
        Set<Integer> busy = new HashSet<>();
        List<Group> groups = new ArrayList<>();
        List<Integer> cleared = new ArrayList<>(alive.stream().filter(e::cleared).toList());
        Collections.shuffle(cleared, rng);
        for (LinkVerdict l : v.links()) {
            if (l.status() == LinkVerdict.Status.UNDECIDED && e.cleared(l.a()) && e.cleared(l.b())
                    && !l.reason().startsWith("inconsistent") && free(busy, l.a(), l.b())) {
                take(busy, groups, Group.pair(l.a(), l.b(), Purpose.CONFIRM_LINK, l.a() + "-" + l.b()));
            }
        }
        for (NodeVerdict n : byNeed(e, v)) {
            if (busy.contains(n.rank())) {
                continue;
            }
            Integer partner = partner(e, busy, cleared, n.rank());
            if (partner != null) {
                take(busy, groups, Group.pair(n.rank(), partner, Purpose.CROSS_CHECK, String.valueOf(n.rank())));
            }
        }
        if (!groups.isEmpty()) {
            controls(e, busy, groups, cleared, round);
            return new RoundPlan(round, groups);
        }
        if (options.groupSize() > 2) {
            List<Group> g = GroupPlanner.plan(e, v, alive, options.groupSize(), rng);
            return g.isEmpty() ? null : new RoundPlan(round, g);
        }
        return null;
    }

    private RoundPlan survey(int round, List<Integer> alive) {
        List<Group> groups = new ArrayList<>();
        switch (options.survey()) {
            case ALL -> {
                for (int i = 0; i < alive.size(); i++) {
                    for (int j = i + 1; j < alive.size(); j++) {
                        groups.add(Group.pair(alive.get(i), alive.get(j), Purpose.SURVEY, ""));
                    }
                }
            }
            case PAIRS -> {
                List<Integer> order = new ArrayList<>(alive);
                Collections.shuffle(order, new Random(options.seed()));
                for (int i = 0; i + 1 < order.size(); i += 2) {
                    groups.add(Group.pair(order.get(i), order.get(i + 1), Purpose.SURVEY, ""));
                }
            }
            case ROUND_ROBIN -> groups.addAll(circle(round, alive));
            case BATCHES -> {
                int width = batchWidth(alive.size());
                int matchings = Math.max(1, alive.size() + (alive.size() % 2) - 1);
                for (int k = (round - 1) * width + 1; k <= Math.min(matchings, round * width); k++) {
                    groups.addAll(circle(k, alive));
                }
            }
        }
        return new RoundPlan(round, groups);
    }

    /** Round {@code round} of the circle method: over N-1 rounds (N even, a bye when odd) every pair meets once. */
    static List<Group> circle(int round, List<Integer> alive) {
        List<Integer> seats = new ArrayList<>(alive);
        if (seats.size() % 2 == 1) {
            seats.add(-1);
        }
        int m = seats.size();
        List<Group> out = new ArrayList<>();
        int k = (round - 1) % (m - 1);
        for (int i = 0; i < m / 2; i++) {
            int x = i == 0 ? 0 : 1 + Math.floorMod(i - 1 + k, m - 1);
            int y = 1 + Math.floorMod(m - 2 - i + k, m - 1);
            int a = seats.get(x);
            int b = seats.get(y);
            if (a >= 0 && b >= 0) {
                out.add(Group.pair(a, b, Purpose.SURVEY, ""));
            }
        }
        return out;
    }

    /**
     * The undecided nodes, those never measured first and the unconfirmed (fine once) last: a suspect gets a
     * cleared partner before a node that only needs its confirming result, and the odd one out is never the node
     * that has nothing yet.
     */
    private static List<NodeVerdict> byNeed(Evidence e, Verdicts v) {
        List<NodeVerdict> out = new ArrayList<>(v.nodes().stream().filter(n -> n.status() == NodeVerdict.Status.UNDECIDED).toList());
        out.sort(java.util.Comparator.comparingInt(n -> n.reason().startsWith(Judge.UNCONFIRMED) ? 2
                : e.pairsOf(n.rank()).isEmpty() ? 0 : 1));
        return out;
    }

    /** A cleared, free partner for {@code rank}, preferring one it has not run with. */
    private static Integer partner(Evidence e, Set<Integer> busy, List<Integer> cleared, int rank) {
        Integer seen = null;
        for (int c : cleared) {
            if (c == rank || busy.contains(c)) {
                continue;
            }
            if (!e.measuredTogether(rank, c)) {
                return c;
            }
            if (seen == null) {
                seen = c;
            }
        }
        return seen;
    }

    /** Free cleared nodes pair up, links not yet measured first. */
    private static void controls(Evidence e, Set<Integer> busy, List<Group> groups, List<Integer> cleared, int round) {
        List<Integer> free = new ArrayList<>(cleared.stream().filter(c -> !busy.contains(c)).toList());
        while (free.size() >= 2) {
            int a = free.remove(0);
            int pick = 0;
            for (int i = 0; i < free.size(); i++) {
                if (!e.measuredTogether(a, free.get(i))) {
                    pick = i;
                    break;
                }
            }
            int b = free.remove(pick);
            take(busy, groups, Group.pair(a, b, Purpose.CONTROL, ""));
        }
    }

    private static boolean free(Set<Integer> busy, int a, int b) {
        return !busy.contains(a) && !busy.contains(b);
    }

    private static void take(Set<Integer> busy, List<Group> groups, Group g) {
        busy.addAll(g.members());
        groups.add(g);
    }
}
