package dev.ncclbench.collective;

/**
 * alltoallv (nccl-tests' alltoallv.cu, generated pattern): each rank sends a total of count / n (rounded down to 16
 * bytes) x n bytes, split over its peers by distance in rank space: peer at distance d gets
 * (1 - spread) x total / n + spread x d x total / (n(n-1)/2) bytes, rounded down to 16; spread is
 * NCCL_TESTS_ALLTOALLV_SPREAD (0 uniform .. 1, the default, fully distance-weighted), which the spec carries
 * ({@link Collectives#byName(String, String)}). Every rank sends and receives the same total, the "size" column; algbw is that
 * total over the time, busbw x (n-1)/n. In place nccl-tests does not check the result (N/A).
 */
final class AllToAllV implements Collective {
    /** nccl-tests' default spread: fully distance-weighted. */
    static final double DEFAULT_SPREAD = 1.0;

    private final double spread;

    AllToAllV(double spread) {
        this.spread = spread;
    }

    /** AlltoAllvParseEnv: strtod of the whole value, else the default; clamped to [0, 1]. */
    static double spreadOf(String value) {
        double v = DEFAULT_SPREAD;
        if (value != null) {
            try {
                String t = value.stripLeading();
                if (!t.isEmpty() && !t.endsWith("d") && !t.endsWith("D") && !t.endsWith("f") && !t.endsWith("F")) {
                    v = Double.parseDouble(t);
                }
            } catch (NumberFormatException e) {
                v = DEFAULT_SPREAD;
            }
        }
        return Double.isNaN(v) ? v : Math.max(0.0, Math.min(1.0, v));
    }

    public Kind kind() { return Kind.ALLTOALLV; }
    public boolean reduces() { return false; }
    public boolean rooted() { return false; }

    /** AlltoAllvGetPeerBytesDistanceWeighted: bytes rank i sends to rank j when each sends {@code total} in all. */
    long peerBytes(int i, int j, int n, long total) {
        if (n == 1) {
            return total & ~15L;
        }
        int distance = ((j - i) % n + n) % n;
        long sumDistances = (long) n * (n - 1) / 2;
        double uniform = (double) total / n;
        double dist = (double) distance * total / sumDistances;
        double bytes = (1.0 - spread) * uniform + spread * dist;
        return (long) bytes & ~15L;
    }

    /** One rank's total in elements (every rank's is the same: the pattern depends only on distance). */
    private long rankTotal(int n, int eb, long total) {
        long sum = 0;
        for (int j = 0; j < n; j++) {
            sum += peerBytes(0, j, n, total) / eb;
        }
        return sum;
    }

    public Counts counts(long count, int eb, int n) {
        long param = Collective.perRank(count, eb, n);
        long each = rankTotal(n, eb, param * n * eb);
        return new Counts(each, each, param, 0, 0);
    }

    /** Elements rank i sends to rank j at this call's counts. */
    public long peerCount(int i, int j, Counts c, int n, int eb) {
        return peerBytes(i, j, n, c.paramCount() * n * eb) / eb;
    }

    /** Where in rank i's send buffer its block for rank j starts, in elements. */
    public long sendOffset(int i, int j, Counts c, int n, int eb) {
        long off = 0;
        for (int k = 0; k < j; k++) {
            off += peerCount(i, k, c, n, eb);
        }
        return off;
    }

    /** Where in rank j's receive buffer the block from rank i starts (blocks in source order), in elements. */
    public long recvOffset(int i, int j, Counts c, int n, int eb) {
        long off = 0;
        for (int k = 0; k < i; k++) {
            off += peerCount(k, j, c, n, eb);
        }
        return off;
    }

    public int algBytesRanks(int n) { return 1; }
    public double busbwFactor(int n) { return (double) (n - 1) / n; }

    /** AlltoAllvGetBw: the larger of a rank's send and receive totals over the time. */
    @Override
    public double algbw(Counts counts, int elementBytes, int nranks, double seconds) {
        return (double) Math.max(counts.sendCount(), counts.recvCount()) * elementBytes / 1.0e9 / seconds;
    }

    @Override
    public boolean checkedInPlace() {
        return false;
    }

    /** alltoallv's blocks depend on the element size: only the typed form below answers. */
    public long source(int rank, long j, Counts c, int n, int root) {
        throw new IllegalStateException("alltoallv's sources depend on the element size");
    }

    /** Output j on {@code rank}: the segments from each source in rank order, each where the source cut it. */
    @Override
    public long source(int rank, long j, Counts c, int n, int root, int eb) {
        long start = 0;
        for (int src = 0; src < n; src++) {
            long len = peerCount(src, rank, c, n, eb);
            if (j < start + len) {
                return Collective.at(src, sendOffset(src, rank, c, n, eb) + (j - start));
            }
            start += len;
        }
        return UNCHECKED; // nccl-tests zeroes the tail in both buffers: nothing to compare
    }

    /** The receive buffer's segments, one per source rank in order (some may be empty). */
    @Override
    public long[] segments(int rank, Counts c, int n, int eb) {
        long[] starts = new long[n + 1];
        for (int src = 0; src < n; src++) {
            starts[src + 1] = starts[src] + peerCount(src, rank, c, n, eb);
        }
        return starts;
    }

    @Override
    public boolean inAll() {
        return false;
    }
}
