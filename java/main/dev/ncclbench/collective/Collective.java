package dev.ncclbench.collective;

/**
 * The contract of one collective, as small as nccl-tests' per-collective files: its name, the
 * counts for a size, the bandwidth formulas, and what every rank must hold afterwards.
 * Backends run it, switching over its {@link Kind}; the sweep times it; results print it.
 */
public sealed interface Collective
        permits AllReduce, AllGather, ReduceScatter, Broadcast, Reduce, AllToAll, SendRecv, Gather, Scatter, AllToAllV, HyperCube {

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

    /** {@link #source} for a call on elements of {@code elementBytes}: only alltoallv's depends on it. */
    default long source(int rank, long j, Counts counts, int nranks, int root, int elementBytes) {
        return source(rank, j, counts, nranks, root);
    }

    /**
     * Where the runs of the receive buffer start that each come from one source in order (and the end), for a
     * collective whose blocks are not paramCount long (alltoallv); null: blocks of paramCount.
     */
    default long[] segments(int rank, Counts counts, int nranks, int elementBytes) {
        return null;
    }

    /** For reduced outputs: the input index all ranks contribute to output j on {@code rank}. */
    default long reducedIndex(int rank, long j, Counts counts, int nranks) {
        return j;
    }

    /**
     * Whether {@code --collective all} runs it: the nine collectives with an NCCL call of their own do; nccl-tests' two
     * send/recv patterns (alltoallv, hypercube) run when asked by name, as their own binaries are.
     */
    default boolean inAll() {
        return true;
    }

    /** Whether nccl-tests checks the in-place result (alltoallv: it prints N/A there, reportErrors 0). */
    default boolean checkedInPlace() {
        return true;
    }

    /**
     * What nccl-tests prints instead of running this collective on {@code nranks} ranks (hypercube: "nRanks 3 is not
     * a power of 2, skipping"), or null when it runs.
     */
    default String skipOn(int nranks) {
        return null;
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
