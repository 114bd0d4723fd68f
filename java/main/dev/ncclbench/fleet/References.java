package dev.ncclbench.fleet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The successful results of a run by class (load, group size), each class kept sorted by busbw, so that a round
 * adds its own results with one merge (not a re-sort of the whole run: 500k results at 1024 nodes) and the class's
 * reference (upper quartile) and slow threshold are read off the sorted values; the slow results of a class are
 * the prefix below its threshold.
 */
final class References {
    /** One class: busbw ascending, and the index (in the run's measurements) of each value. */
    static final class Klass {
        final int load;
        final int size;
        double[] values = new double[0];
        int[] index = new int[0];
        double reference = Double.NaN;
        double threshold = Double.NEGATIVE_INFINITY;

        Klass(int load, int size) {
            this.load = load;
            this.size = size;
        }

        int count() {
            return values.length;
        }
    }

    private final double margin;
    private final OptionalDouble floor;
    private final Map<Long, Klass> classes = new HashMap<>();
    private final Map<Long, List<long[]>> pending = new HashMap<>();
    private long lastKey = -1;
    private Klass last;

    References(double margin, OptionalDouble floor) {
        this.margin = margin;
        this.floor = floor;
    }

    private static long key(int load, int size) {
        return (long) load << 32 | size;
    }

    /** The class of (load, size), or null when nothing of it succeeded. */
    Klass of(int load, int size) {
        long k = key(load, size);
        if (k != lastKey) { // the judge asks for one class many times in a row
            last = classes.get(k);
            lastKey = last == null ? -1 : k;
        }
        return last;
    }

    Iterable<Klass> all() {
        return classes.values();
    }

    /** A successful result to merge at the next {@link #commit}. */
    void add(int load, int size, double busbw, int measurementIndex) {
        pending.computeIfAbsent(key(load, size), k -> new ArrayList<>())
                .add(new long[]{Double.doubleToRawLongBits(busbw), measurementIndex});
    }

    /** Merges what was added into each class, and sets the reference and threshold of the classes that grew. */
    void commit() {
        for (Map.Entry<Long, List<long[]>> e : pending.entrySet()) {
            long k = e.getKey();
            Klass c = classes.computeIfAbsent(k, x -> new Klass((int) (x >>> 32), (int) (x & 0xFFFFFFFFL)));
            List<long[]> add = e.getValue();
            add.sort((x, y) -> Double.compare(Double.longBitsToDouble(x[0]), Double.longBitsToDouble(y[0])));
            merge(c, add);
            // upper quartile: the best results of the run at this load, robust to one lucky outlier
            int n = c.values.length;
            c.reference = c.values[n - 1 - (n - 1) / 4];
            double byMargin = c.reference > 0 ? margin * c.reference : Double.NEGATIVE_INFINITY;
            // the catalog's floor holds for every result: a group sharing its nodes' links with load-1 others gets its share
            c.threshold = floor.isPresent() ? Math.max(byMargin, floor.getAsDouble() / c.load) : byMargin;
        }
        pending.clear();
        lastKey = -1;
    }

    private static void merge(Klass c, List<long[]> add) {
        int n = c.values.length;
        int m = add.size();
        double[] v = new double[n + m];
        int[] ix = new int[n + m];
        int i = 0;
        int j = 0;
        int o = 0;
        while (i < n || j < m) {
            double a = i < n ? c.values[i] : Double.NaN;
            double b = j < m ? Double.longBitsToDouble(add.get(j)[0]) : Double.NaN;
            if (j >= m || (i < n && Double.compare(a, b) <= 0)) {
                v[o] = a;
                ix[o++] = c.index[i++];
            } else {
                v[o] = b;
                ix[o++] = (int) add.get(j++)[1];
            }
        }
        c.values = v;
        c.index = ix;
    }
}
