package dev.ncclbench.fleet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Everything measured so far and who is gone, with the one rule for what "slow" means: below
 * {@link SearchOptions#margin} of the reference, where the reference is the upper quartile of every result
 * of this run at the same group size and the same load (the best pairs, robust to one lucky outlier), or,
 * for pairs that ran alone, below the fabric catalog's healthy floor when one is given. A group that failed
 * while all its members stayed reachable counts as slow (a link that cannot carry an all_reduce is bad).
 */
public final class Evidence {
    /** Above this many nodes only links with a slow or failed result get a verdict of their own (see Judge). */
    static final int ALL_LINKS_MAX = 64;

    private final int nodes;
    private final List<GroupMeasurement> measurements;
    private final Set<Integer> unreachable;
    private final SearchOptions options;
    private final int lastRound;
    private final Index index;
    private final Map<Long, Double> references = new HashMap<>();
    private long lastReferenceKey = -1;
    private double lastReference;
    private final Map<Integer, Boolean> clearedCache = new HashMap<>();

    /**
     * The results by link and by node. Append-only and shared by the Evidence of successive rounds, so that a
     * round at 1024 nodes indexes only its own results; each Evidence reads the rounds up to its own.
     */
    private static final class Index {
        final Map<Long, List<GroupMeasurement>> byLink = new HashMap<>();
        final Map<Integer, List<GroupMeasurement>> pairsByNode = new HashMap<>();
        int size;

        void add(List<GroupMeasurement> ms) {
            for (GroupMeasurement m : ms) {
                if (m.group().isPair()) {
                    int a = m.group().members().get(0);
                    int b = m.group().members().get(1);
                    byLink.computeIfAbsent(key(a, b), k -> new ArrayList<>(2)).add(m);
                    pairsByNode.computeIfAbsent(a, k -> new ArrayList<>()).add(m);
                    pairsByNode.computeIfAbsent(b, k -> new ArrayList<>()).add(m);
                }
            }
            size += ms.size();
        }
    }

    public Evidence(int nodes, List<GroupMeasurement> measurements, Set<Integer> unreachable, SearchOptions options) {
        this(nodes, measurements, unreachable, options, new Index());
        index.add(this.measurements);
    }

    private Evidence(int nodes, List<GroupMeasurement> measurements, Set<Integer> unreachable, SearchOptions options,
                     Index index) {
        this.nodes = nodes;
        this.measurements = List.copyOf(measurements);
        this.unreachable = Set.copyOf(new TreeSet<>(unreachable));
        this.options = options;
        this.index = index;
        this.lastRound = this.measurements.stream().mapToInt(GroupMeasurement::round).max().orElse(0);
    }

    /**
     * The evidence after one more round: {@code all} is every result so far, of which the ones after this
     * evidence's are new (a whole round at a time).
     */
    Evidence next(List<GroupMeasurement> all, Set<Integer> unreachableNow) {
        if (index.size != measurements.size()) {
            return new Evidence(nodes, all, unreachableNow, options);
        }
        Evidence e = new Evidence(nodes, all, unreachableNow, options, index);
        index.add(all.subList(measurements.size(), all.size()));
        return e;
    }

    private boolean mine(GroupMeasurement m) {
        return m.round() <= lastRound;
    }

    /** A pair as one number; (a << 20 | b), not (a << 32 | b), whose Long hash (a ^ b) collides by the thousand. */
    static long key(int a, int b) {
        return (long) Math.min(a, b) << 20 | Math.max(a, b);
    }

    private static int[] pair(long key) {
        return new int[]{(int) (key >>> 20), (int) (key & 0xFFFFF)};
    }

    /** Every pair that ran, as {a, b} with a &lt; b, in the order first measured. */
    public List<int[]> measuredLinks() {
        List<int[]> out = new ArrayList<>();
        for (Map.Entry<Long, List<GroupMeasurement>> e : index.byLink.entrySet()) {
            if (mine(e.getValue().get(0))) {
                out.add(pair(e.getKey()));
            }
        }
        out.sort(Comparator.<int[]>comparingInt(x -> x[0]).thenComparingInt(x -> x[1]));
        return out;
    }

    /** How many distinct pairs ran. */
    public int linksMeasured() {
        return (int) index.byLink.values().stream().filter(l -> mine(l.get(0))).count();
    }

    /**
     * The links a verdict of their own is worth: every measured one up to {@link #ALL_LINKS_MAX} nodes; above,
     * those with a slow, failed or unusable result (the rest are good, and counted).
     */
    public List<int[]> linksToJudge() {
        if (nodes <= ALL_LINKS_MAX) {
            return measuredLinks();
        }
        java.util.Set<Long> keys = new java.util.TreeSet<>();
        for (GroupMeasurement m : measurements) {
            if (m.group().isPair() && (!usable(m) || slow(m))) {
                keys.add(key(m.group().members().get(0), m.group().members().get(1)));
            }
        }
        List<int[]> out = new ArrayList<>();
        for (long k : keys) {
            out.add(pair(k));
        }
        return out;
    }

    public int nodes() {
        return nodes;
    }

    public List<GroupMeasurement> measurements() {
        return measurements;
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
        long k = (long) load << 32 | size;
        if (k == lastReferenceKey) {
            return lastReference; // the judge asks for one load's reference millions of times in a row at 1024 nodes
        }
        double v = references.computeIfAbsent(k, x -> computeReference(load, size));
        lastReferenceKey = k;
        lastReference = v;
        return v;
    }

    private double computeReference(int load, int size) {
        List<Double> values = new ArrayList<>();
        for (GroupMeasurement m : measurements) {
            if (!m.failed() && m.load() == load && m.group().size() == size) {
                values.add(m.busbw());
            }
        }
        if (values.isEmpty()) {
            return Double.NaN;
        }
        values.sort(Comparator.reverseOrder());
        return values.get((values.size() - 1) / 4);
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
        // the catalog's floor holds for every result: a group sharing its nodes' links with load-1 others gets its share
        if (options.floorGBps().isPresent() && m.busbw() < options.floorGBps().getAsDouble() / m.load()) {
            return true;
        }
        return ratio(m) < options.margin();
    }

    /** Usable pair results of {@code rank}, in round order. */
    public List<GroupMeasurement> pairsOf(int rank) {
        return index.pairsByNode.getOrDefault(rank, List.of()).stream().filter(m -> mine(m) && usable(m)).toList();
    }

    /** Usable results of the pair a-b, in round order. */
    public List<GroupMeasurement> link(int a, int b) {
        return index.byLink.getOrDefault(key(a, b), List.of()).stream().filter(m -> mine(m) && usable(m)).toList();
    }

    /** Usable results of groups of {@code size} (larger than two) that {@code rank} was in. */
    public List<GroupMeasurement> groupsOf(int rank, int size) {
        return measurements.stream().filter(m -> m.group().size() == size && m.group().contains(rank) && usable(m)).toList();
    }

    /** Whether a and b were ever measured as a pair (usable or not). */
    public boolean measuredTogether(int a, int b) {
        List<GroupMeasurement> l = index.byLink.get(key(a, b));
        return l != null && mine(l.get(0));
    }

    /**
     * Cleared: not a slow node, as far as pairs tell: a fine result with a pair that ran alone, or a majority of
     * fine pair results (a node at one end of one bad link is still cleared by its other links).
     */
    public boolean cleared(int rank) {
        return clearedCache.computeIfAbsent(rank, this::computeCleared);
    }

    private boolean computeCleared(int rank) {
        if (!reachable(rank)) {
            return false;
        }
        List<GroupMeasurement> mine = pairsOf(rank);
        if (mine.stream().anyMatch(m -> m.load() == 1 && !slow(m))) {
            return true;
        }
        long fine = mine.stream().filter(m -> !slow(m)).count();
        return fine > mine.size() - fine;
    }

    /** Proven fine at group size {@code size}: a member of a group of that size that was not slow. */
    public boolean clearedAt(int rank, int size) {
        return reachable(rank) && groupsOf(rank, size).stream().anyMatch(m -> !slow(m));
    }
}
