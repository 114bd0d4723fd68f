package dev.ncclbench.fleet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Everything measured so far and who is gone, with the one rule for what "slow" means: below
 * {@link SearchOptions#margin} of the reference, where the reference is the upper quartile of every result
 * of this run at the same group size and the same load (the best pairs, robust to one lucky outlier), or below
 * the fabric catalog's healthy floor (shared by the groups a node ran at once) when one is given. A group that
 * failed while all its members stayed reachable counts as slow (a link that cannot carry an all_reduce is bad).
 * <p>
 * Each round is folded in ({@link #fold}): its results go into per-link, per-node and per-class state, and what
 * the judge asks per node (cleared, how many fine results) is counted from the slow results only, which are few;
 * a round at 1024 nodes (75k results, 500k in the run) costs the round's own results, not the run's. One Evidence
 * serves a whole search: an older round's view is not kept.
 */
public final class Evidence {
    /** Above this many nodes only links with a slow or failed result get a verdict of their own (see Judge). */
    static final int ALL_LINKS_MAX = 64;

    private final int nodes;
    private final SearchOptions options;
    private final List<GroupMeasurement> measurements = new ArrayList<>();
    private Set<Integer> unreachable = Set.of();
    private final Map<Integer, List<GroupMeasurement>> byLink = new HashMap<>();
    private final List<List<GroupMeasurement>> pairsByNode = new ArrayList<>();
    private final List<List<GroupMeasurement>> groupsByNode = new ArrayList<>();
    private final List<GroupMeasurement> largerGroups = new ArrayList<>();
    private final List<GroupMeasurement> failures = new ArrayList<>();
    private final References references;
    /** Per node: successful pair results, and those that ran alone. */
    private final int[] pairsOk;
    private final List<List<GroupMeasurement>> aloneByNode = new ArrayList<>();
    /** With --baseline: the verdict of each pair result the baseline has a line for, and the slow ones. */
    private final BaselineJudge baseline;
    private final Map<GroupMeasurement, BaselineJudge.Verdict> byBaseline = new java.util.IdentityHashMap<>();
    private final List<GroupMeasurement> slowByBaseline = new ArrayList<>();
    /** Per node, recounted at each fold from the slow prefixes and the failures: slow and usable-failed pair results. */
    private final int[] slowPairs;
    private final int[] failedPairs;
    private final TreeSet<Integer> slowLinks = new TreeSet<>();

    public Evidence(int nodes, SearchOptions options) {
        this(nodes, options, null);
    }

    /** @param baseline judges pair results that have a recorded rate (null: relative and --fabric only) */
    Evidence(int nodes, SearchOptions options, BaselineJudge baseline) {
        this.nodes = nodes;
        this.options = options;
        this.baseline = baseline;
        this.references = new References(options.margin(), options.floorGBps());
        for (int r = 0; r < nodes; r++) {
            pairsByNode.add(new ArrayList<>());
            groupsByNode.add(new ArrayList<>());
            aloneByNode.add(new ArrayList<>());
        }
        pairsOk = new int[nodes];
        slowPairs = new int[nodes];
        failedPairs = new int[nodes];
    }

    public Evidence(int nodes, List<GroupMeasurement> measurements, Set<Integer> unreachable, SearchOptions options) {
        this(nodes, options);
        fold(measurements, unreachable);
    }

    /** Adds one round's results (or any batch of new ones) and the nodes unreachable now; returns this. */
    public Evidence fold(List<GroupMeasurement> fresh, Set<Integer> unreachableNow) {
        for (GroupMeasurement m : fresh) {
            int i = measurements.size();
            measurements.add(m);
            List<Integer> mem = m.group().members();
            if (m.group().isPair()) {
                int a = mem.get(0);
                int b = mem.get(1);
                byLink.computeIfAbsent(key(a, b), k -> new ArrayList<>(2)).add(m);
                pairsByNode.get(a).add(m);
                pairsByNode.get(b).add(m);
                if (!m.failed()) {
                    pairsOk[a]++;
                    pairsOk[b]++;
                    if (m.load() == 1) {
                        aloneByNode.get(a).add(m);
                        aloneByNode.get(b).add(m);
                    }
                    BaselineJudge.Verdict v = baseline == null ? null : baseline.judge(m);
                    if (v != null) {
                        byBaseline.put(m, v);
                        if (v.slow()) {
                            slowByBaseline.add(m);
                        }
                    }
                }
            } else {
                largerGroups.add(m);
                mem.forEach(r -> groupsByNode.get(r).add(m));
            }
            if (m.failed()) {
                failures.add(m);
            } else {
                references.add(m.load(), m.group().size(), m.busbw(), i);
            }
        }
        unreachable = Set.copyOf(new TreeSet<>(unreachableNow));
        references.commit();
        recount();
        return this;
    }

    /** The per-node slow and failed counts and the slow links, from each class's slow prefix and the failures. */
    private void recount() {
        java.util.Arrays.fill(slowPairs, 0);
        java.util.Arrays.fill(failedPairs, 0);
        slowLinks.clear();
        for (References.Klass c : references.all()) {
            if (c.size != 2) {
                continue;
            }
            for (int i = 0; i < c.count() && c.values[i] < c.threshold; i++) {
                GroupMeasurement m = measurements.get(c.index[i]);
                if (slow(m)) { // below the relative threshold, and not cleared by its baseline
                    countSlow(m);
                }
            }
        }
        for (GroupMeasurement m : slowByBaseline) {
            References.Klass c = references.of(m.load(), 2);
            if (!(m.busbw() < c.threshold)) { // the prefix above did not count it
                countSlow(m);
            }
        }
        for (GroupMeasurement m : failures) {
            if (m.group().isPair()) {
                int a = m.group().members().get(0);
                int b = m.group().members().get(1);
                slowLinks.add(key(a, b)); // slow, or not judged: either way worth a verdict of its own
                if (usable(m)) {
                    failedPairs[a]++;
                    failedPairs[b]++;
                }
            }
        }
    }

    private void countSlow(GroupMeasurement m) {
        List<Integer> mem = m.group().members();
        slowPairs[mem.get(0)]++;
        slowPairs[mem.get(1)]++;
        slowLinks.add(key(mem.get(0), mem.get(1)));
    }

    /** A pair as one number, a * nodes + b (a &lt; b): dense, so a hash table spreads it (a &lt;&lt; 20 | b did not). */
    private int key(int a, int b) {
        return Math.min(a, b) * nodes + Math.max(a, b);
    }

    private int[] pair(int key) {
        return new int[]{key / nodes, key % nodes};
    }

    /** Every pair that ran, as {a, b} with a &lt; b, ascending. */
    public List<int[]> measuredLinks() {
        List<int[]> out = new ArrayList<>();
        for (int k : new TreeSet<>(byLink.keySet())) {
            out.add(pair(k));
        }
        return out;
    }

    /** How many distinct pairs ran. */
    public int linksMeasured() {
        return byLink.size();
    }

    /**
     * The links a verdict of their own is worth: every measured one up to {@link #ALL_LINKS_MAX} nodes; above,
     * those with a slow, failed or unusable result (the rest are good, and counted).
     */
    public List<int[]> linksToJudge() {
        if (nodes <= ALL_LINKS_MAX) {
            return measuredLinks();
        }
        return slowLinks.stream().map(this::pair).toList();
    }

    public int nodes() {
        return nodes;
    }

    /** Every result, in round order. */
    public List<GroupMeasurement> measurements() {
        return Collections.unmodifiableList(measurements);
    }

    public Set<Integer> unreachable() {
        return unreachable;
    }

    public SearchOptions options() {
        return options;
    }

    public boolean reachable(int rank) {
        return !unreachable.contains(rank);
    }

    /** Whether a result says anything: a failure caused by a member that was lost says nothing about the rest. */
    public boolean usable(GroupMeasurement m) {
        return !m.failed() || m.group().members().stream().allMatch(this::reachable);
    }

    /** The upper quartile of the successful results at this load and group size; NaN when there are none. */
    public double reference(int load, int size) {
        References.Klass c = references.of(load, size);
        return c == null ? Double.NaN : c.reference;
    }

    /** busbw over the reference: 1 is as good as the best of this run; 0 for a failure. */
    public double ratio(GroupMeasurement m) {
        if (m.failed()) {
            return 0;
        }
        double ref = reference(m.load(), m.group().size());
        return ref > 0 ? m.busbw() / ref : 1;
    }

    public boolean slow(GroupMeasurement m) {
        if (m.failed()) {
            return true;
        }
        BaselineJudge.Verdict v = byBaseline.isEmpty() ? null : byBaseline.get(m);
        if (v != null) {
            // the recorded rate decides; the catalog's floor still holds
            return v.slow() || options.floorGBps().isPresent() && m.busbw() < options.floorGBps().getAsDouble() / m.load();
        }
        References.Klass c = references.of(m.load(), m.group().size());
        return c != null && m.busbw() < c.threshold;
    }

    /** The baseline's verdict on a result, or null where it had no recorded rate (or no --baseline). */
    BaselineJudge.Verdict againstBaseline(GroupMeasurement m) {
        return byBaseline.get(m);
    }

    /** The baseline judge, or null without --baseline. */
    BaselineJudge baseline() {
        return baseline;
    }

    /** Usable pair results of {@code rank}, in round order. */
    public List<GroupMeasurement> pairsOf(int rank) {
        List<GroupMeasurement> all = pairsByNode.get(rank);
        return failedPairs[rank] == 0 && all.size() == pairsOk[rank] ? Collections.unmodifiableList(all)
                : all.stream().filter(this::usable).toList();
    }

    /** Usable results of the pair a-b, in round order. */
    public List<GroupMeasurement> link(int a, int b) {
        return byLink.getOrDefault(key(a, b), List.of()).stream().filter(this::usable).toList();
    }

    /** Usable results of groups of {@code size} (larger than two) that {@code rank} was in. */
    public List<GroupMeasurement> groupsOf(int rank, int size) {
        return groupsByNode.get(rank).stream().filter(m -> m.group().size() == size && usable(m)).toList();
    }

    /** Results of groups larger than two, in round order. */
    public List<GroupMeasurement> largerGroups() {
        return Collections.unmodifiableList(largerGroups);
    }

    /** Whether a and b were ever measured as a pair (usable or not). */
    public boolean measuredTogether(int a, int b) {
        return byLink.containsKey(key(a, b));
    }

    /** Usable pair results of {@code rank} that were not slow. */
    public int finePairs(int rank) {
        return pairsOk[rank] - slowPairs[rank];
    }

    /**
     * Cleared: not a slow node, as far as pairs tell: a fine result with a pair that ran alone, or a majority of
     * fine pair results (a node at one end of one bad link is still cleared by its other links).
     */
    public boolean cleared(int rank) {
        if (!reachable(rank)) {
            return false;
        }
        for (GroupMeasurement m : aloneByNode.get(rank)) {
            if (!slow(m)) {
                return true;
            }
        }
        int fine = finePairs(rank);
        int total = pairsOk[rank] + failedPairs[rank];
        return fine > total - fine;
    }

    /**
     * The fine pair result that speaks best for {@code rank}: the one that ran under the least load, the latest of
     * those; null when none was fine.
     */
    public GroupMeasurement bestFine(int rank) {
        GroupMeasurement best = null;
        List<GroupMeasurement> all = pairsByNode.get(rank);
        for (int i = all.size() - 1; i >= 0; i--) {
            GroupMeasurement m = all.get(i);
            if ((best == null || m.load() < best.load()) && !slow(m)) {
                best = m;
                if (m.load() == 1) {
                    break;
                }
            }
        }
        return best;
    }

    /** Proven fine at group size {@code size}: a member of a group of that size that was not slow. */
    public boolean clearedAt(int rank, int size) {
        return reachable(rank) && groupsOf(rank, size).stream().anyMatch(m -> !slow(m));
    }
}
