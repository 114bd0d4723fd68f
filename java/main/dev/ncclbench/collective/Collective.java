package dev.ncclbench.collective;

/**
 * The contract of one collective, as small as nccl-tests' per-collective files: its name, the
 * counts for a size, the bandwidth formulas, and what every rank must hold afterwards.
 * Backends run it, switching over its {@link Kind}; the sweep times it; results print it.
 */
public sealed interface Collective
        permits AllReduce, AllGather, ReduceScatter, Broadcast, Reduce, AllToAll, SendRecv, Gather, Scatter {

    /** Which collective this is: what backends switch over. */
    Kind kind();

    /** nccl-tests' name, e.g. "all_reduce". */
    default String name() {
        return kind().label();
    }

    /** Whether the reduction operator matters (redop column shows "none" otherwise). */
    boolean reduces();

    /** Whether a root rank matters (root column shows -1 otherwise). */
    boolean rooted();

    /** nccl-tests' getCollByteCount for {@code count = size / elementBytes}. */
    Counts counts(long count, int elementBytes, int nranks);

    /** How many times paramCount x elementBytes the algbw numerator is: 1, or n for gather-like collectives. */
    int algBytesRanks(int nranks);

    /** busbw = algbw x this factor. */
    double busbwFactor(int nranks);

    /**
     * Index of the input element that lands at output element {@code j} on {@code rank}, as
     * {@code sourceRank * 2^32 + sourceIndex}; {@link #REDUCED} when output j is the reduction of
     * every rank's input at {@link #reducedIndex}; {@link #UNCHECKED} when the rank's output is undefined.
     */
    long source(int rank, long j, Counts counts, int nranks, int root);

    /** For reduced outputs: the input index all ranks contribute to output j on {@code rank}. */
    default long reducedIndex(int rank, long j, Counts counts, int nranks) {
        return j;
    }

    long REDUCED = -1;
    long UNCHECKED = -2;

    /** Whether {@code rank} receives any output to verify (false e.g. on non-root ranks of reduce). */
    default boolean hasOutput(int rank, int root) {
        return true;
    }

    static long at(int sourceRank, long index) {
        return ((long) sourceRank << 32) | index;
    }

    /** algbw in GB/s (1e9 bytes per second) for one call of {@code seconds}. */
    default double algbw(Counts counts, int elementBytes, int nranks, double seconds) {
        double bytes = (double) counts.paramCount() * elementBytes * algBytesRanks(nranks);
        return bytes / 1.0e9 / seconds;
    }

    default double busbw(Counts counts, int elementBytes, int nranks, double seconds) {
        return algbw(counts, elementBytes, nranks, seconds) * busbwFactor(nranks);
    }

    /** nccl-tests' per-rank rounding: (count / n) down to a multiple of 16 bytes. */
    static long perRank(long count, int elementBytes, int nranks) {
        long base = count / nranks;
        long multiple = Math.max(1, 16 / elementBytes);
        return base - base % multiple;
    }
}
