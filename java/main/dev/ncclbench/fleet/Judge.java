package dev.ncclbench.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Turns the evidence into verdicts. Pure: the same evidence gives the same verdicts.
 * <ul>
 * <li>A node is <b>slow</b> when it is not cleared (see {@link Evidence#cleared}) and its pairs were slow with at
 * least two distinct cleared partners, one of them running alone: one bad partner or one bad link cannot
 * explain that. A node good in pairs is slow at a larger group size when a slow group of that size holds it
 * and otherwise only nodes proven fine at that size.</li>
 * <li>A link is <b>bad</b> when both ends are cleared and it was slow at least twice, at least once alone, and
 * never fine alone. A slow link with a slow end is explained by the node.</li>
 * <li>A node cleared by one fine result alone is <b>undecided</b> ("unconfirmed"), never good: a second result
 * (another partner in a later round, or a retest) must match first.</li>
 * <li>Anything else that is not shown good is <b>undecided</b>, and said so.</li>
 * </ul>
 */
public final class Judge {
    /** How a node's reason starts while one fine result is all that speaks for it. */
    static final String UNCONFIRMED = "unconfirmed";

    private Judge() {
    }

    public static Verdicts judge(Evidence e, List<String> hosts, Map<Integer, String> lostWhy) {
        List<NodeVerdict> nodes = new ArrayList<>();
        List<String> undecided = new ArrayList<>();
        for (int r = 0; r < e.nodes(); r++) {
            NodeVerdict v = node(e, hosts, lostWhy, r);
            nodes.add(v);
            if (v.status() == NodeVerdict.Status.UNDECIDED) {
                undecided.add("node " + hosts.get(r) + ": " + v.reason());
            }
        }
        List<LinkVerdict> links = new ArrayList<>();
        for (int[] ab : e.linksToJudge()) {
            int a = ab[0];
            int b = ab[1];
            LinkVerdict v = link(e, hosts, nodes, a, b);
            links.add(v);
            if (v.status() == LinkVerdict.Status.UNDECIDED) {
                undecided.add("link " + hosts.get(a) + " - " + hosts.get(b) + ": " + v.reason());
            }
        }
        return new Verdicts(nodes, links, undecided, e.linksMeasured());
    }

    private static NodeVerdict node(Evidence e, List<String> hosts, Map<Integer, String> lostWhy, int r) {
        if (!e.reachable(r)) {
            return new NodeVerdict(r, NodeVerdict.Status.UNREACHABLE, lostWhy.getOrDefault(r, "lost during the search"));
        }
        List<GroupMeasurement> mine = e.pairsOf(r);
        if (e.cleared(r)) {
            String atSize = slowAtGroupSize(e, hosts, r);
            if (atSize != null) {
                return new NodeVerdict(r, NodeVerdict.Status.SLOW, atSize);
            }
            GroupMeasurement best = e.bestFine(r);
            if (e.finePairs(r) < 2) {
                // one fine result may be luck or a partner that hides a slow node's share: not cleared on one result
                return new NodeVerdict(r, NodeVerdict.Status.UNDECIDED, UNCONFIRMED + ": fine once, with "
                        + hosts.get(best.group().other(r)) + " in round " + best.round() + " (" + pct(e.ratio(best))
                        + " of the best pairs); not cleared until a second result matches");
            }
            return new NodeVerdict(r, NodeVerdict.Status.GOOD, "fine with " + hosts.get(best.group().other(r))
                    + " in round " + best.round() + " (" + pct(e.ratio(best)) + " of the best pairs)");
        }
        if (mine.isEmpty()) {
            return new NodeVerdict(r, NodeVerdict.Status.UNDECIDED, "never measured in a pair");
        }
        Set<Integer> slowWithCleared = new TreeSet<>();
        boolean slowAlone = false;
        for (GroupMeasurement m : mine) {
            int p = m.group().other(r);
            if (e.slow(m) && e.cleared(p)) {
                slowWithCleared.add(p);
                slowAlone |= m.load() == 1;
            }
        }
        if (slowWithCleared.size() >= 2 && slowAlone) {
            double worst = mine.stream().filter(e::slow).mapToDouble(e::ratio).max().orElse(0);
            return new NodeVerdict(r, NodeVerdict.Status.SLOW, "slow with " + names(hosts, slowWithCleared)
                    + ", each fine with other nodes (at most " + pct(worst) + " of the best pairs)");
        }
        if (slowWithCleared.isEmpty()) {
            return new NodeVerdict(r, NodeVerdict.Status.UNDECIDED, "slow only with partners that are not proven good ("
                    + names(hosts, mine.stream().map(m -> m.group().other(r)).collect(Collectors.toCollection(TreeSet::new))) + ")");
        }
        return new NodeVerdict(r, NodeVerdict.Status.UNDECIDED, "slow with " + names(hosts, slowWithCleared)
                + (slowAlone ? "" : " while sharing its link with other pairs") + "; one more good partner would tell");
    }

    /** Fine in pairs but slow in a group whose other members are proven fine at that size: the reason, or null. */
    private static String slowAtGroupSize(Evidence e, List<String> hosts, int r) {
        int k = e.options().groupSize();
        if (k <= 2 || e.clearedAt(r, k)) {
            return null;
        }
        for (GroupMeasurement m : e.groupsOf(r, k)) {
            if (e.slow(m) && m.group().members().stream().filter(x -> x != r).allMatch(x -> e.clearedAt(x, k))) {
                Set<Integer> others = new TreeSet<>(m.group().members());
                others.remove(r);
                return "fine in pairs, slow in groups of " + k + ": round " + m.round() + " with " + names(hosts, others)
                        + " (fine in other groups of " + k + ") reached " + pct(e.ratio(m)) + " of the best groups";
            }
        }
        return null;
    }

    private static LinkVerdict link(Evidence e, List<String> hosts, List<NodeVerdict> nodes, int a, int b) {
        List<GroupMeasurement> all = e.link(a, b);
        if (all.isEmpty()) {
            int gone = e.reachable(a) ? b : a;
            return new LinkVerdict(a, b, LinkVerdict.Status.NOT_JUDGED, Double.NaN, Double.NaN,
                    hosts.get(gone) + " was lost while it ran");
        }
        GroupMeasurement last = all.get(all.size() - 1);
        double busbw = last.failed() ? 0 : last.busbw();
        double ratio = e.ratio(last);
        List<GroupMeasurement> alone = all.stream().filter(m -> m.load() == 1).toList();
        List<GroupMeasurement> basis = alone.isEmpty() ? all : alone;
        long slow = basis.stream().filter(e::slow).count();
        if (slow == 0) {
            return new LinkVerdict(a, b, LinkVerdict.Status.GOOD, busbw, ratio, "fine (" + pct(ratio) + " of the best pairs)");
        }
        boolean slowEnd = nodes.get(a).status() == NodeVerdict.Status.SLOW || nodes.get(b).status() == NodeVerdict.Status.SLOW;
        if (slow < basis.size()) {
            return new LinkVerdict(a, b, slowEnd ? LinkVerdict.Status.EXPLAINED : LinkVerdict.Status.UNDECIDED, busbw, ratio,
                    "inconsistent: slow in round " + rounds(basis, e, true) + ", fine in round " + rounds(basis, e, false));
        }
        if (slowEnd) {
            int s = nodes.get(a).status() == NodeVerdict.Status.SLOW ? a : b;
            return new LinkVerdict(a, b, LinkVerdict.Status.EXPLAINED, busbw, ratio, "slow because " + hosts.get(s) + " is slow");
        }
        long slowTotal = all.stream().filter(e::slow).count();
        if (e.cleared(a) && e.cleared(b) && !alone.isEmpty() && slowTotal >= 2) {
            return new LinkVerdict(a, b, LinkVerdict.Status.BAD, busbw, ratio, "slow in rounds " + rounds(all, e, true)
                    + " (" + (last.failed() ? "failed: " + last.error() : pct(ratio) + " of the best pairs")
                    + ") while " + hosts.get(a) + " and " + hosts.get(b) + " are fine with other nodes");
        }
        String why = !(e.cleared(a) && e.cleared(b)) ? "slow, and an end is not proven good yet"
                : "slow " + slowTotal + " time" + (slowTotal == 1 ? "" : "s") + (alone.isEmpty() ? " while sharing links" : "")
                + "; needs a second result alone";
        return new LinkVerdict(a, b, LinkVerdict.Status.UNDECIDED, busbw, ratio, why);
    }

    private static String rounds(List<GroupMeasurement> ms, Evidence e, boolean slow) {
        return ms.stream().filter(m -> e.slow(m) == slow).map(m -> String.valueOf(m.round())).distinct()
                .collect(Collectors.joining(" and "));
    }

    static String pct(double ratio) {
        return String.format(Locale.ROOT, "%.0f%%", ratio * 100);
    }

    static String names(List<String> hosts, Set<Integer> ranks) {
        return ranks.stream().map(hosts::get).collect(Collectors.joining(", "));
    }
}
