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
    private final int nodes;
    private final List<GroupMeasurement> measurements;
    private final Set<Integer> unreachable;
    private final SearchOptions options;
    // indexes: at 1024 nodes and a few thousand results the judge asks these questions millions of times
    private final Map<Long, List<GroupMeasurement>> byLink = new HashMap<>();
    private final Map<Integer, List<GroupMeasurement>> pairsByNode = new HashMap<>();
    private final Map<Long, Double> references = new HashMap<>();
    private final Map<Integer, Boolean> clearedCache = new HashMap<>();

    public Evidence(int nodes, List<GroupMeasurement> measurements, Set<Integer> unreachable, SearchOptions options) {
        this.nodes = nodes;
        this.measurements = List.copyOf(measurements);
        this.unreachable = Set.copyOf(new TreeSet<>(unreachable));
        this.options = options;
        for (GroupMeasurement m : this.measurements) {
            if (m.group().isPair()) {
                int a = m.group().members().get(0);
                int b = m.group().members().get(1);
                byLink.computeIfAbsent(key(a, b), k -> new ArrayList<>()).add(m);
                pairsByNode.computeIfAbsent(a, k -> new ArrayList<>()).add(m);
                pairsByNode.computeIfAbsent(b, k -> new ArrayList<>()).add(m);
            }
        }
    }

    static long key(int a, int b) {
        return (long) Math.min(a, b) << 32 | Math.max(a, b);
    }

    /** Every pair that ran, as {a, b} with a &lt; b, in the order first measured. */
    public List<int[]> measuredLinks() {
        List<int[]> out = new ArrayList<>();
        for (long k : byLink.keySet()) {
            out.add(new int[]{(int) (k >>> 32), (int) k});
        }
        out.sort(Comparator.<int[]>comparingInt(x -> x[0]).thenComparingInt(x -> x[1]));
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
        return references.computeIfAbsent((long) load << 32 | size, k -> computeReference(load, size));
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
        if (m.load() == 1 && m.group().isPair() && options.floorGBps().isPresent()
                && m.busbw() < options.floorGBps().getAsDouble()) {
            return true;
        }
        return ratio(m) < options.margin();
    }

    /** Usable pair results of {@code rank}, in round order. */
    public List<GroupMeasurement> pairsOf(int rank) {
        return pairsByNode.getOrDefault(rank, List.of()).stream().filter(this::usable).toList();
    }

    /** Usable results of the pair a-b, in round order. */
    public List<GroupMeasurement> link(int a, int b) {
        return byLink.getOrDefault(key(a, b), List.of()).stream().filter(this::usable).toList();
    }

    /** Usable results of groups of {@code size} (larger than two) that {@code rank} was in. */
    public List<GroupMeasurement> groupsOf(int rank, int size) {
        return measurements.stream().filter(m -> m.group().size() == size && m.group().contains(rank) && usable(m)).toList();
    }

    /** Whether a and b were ever measured as a pair (usable or not). */
    public boolean measuredTogether(int a, int b) {
        return byLink.containsKey(key(a, b));
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
