package dev.ncclbench.backend.socket;

import dev.ncclbench.spec.Sizes;

/**
 * How the socket backend moves an all_reduce, as a site reproduces a number: the algorithm (--socket-algo),
 * the piece size of the reducing receives (--socket-chunk), and the two crossovers chosen from measurements
 * (docs/benchmarks.md): recursive doubling up to {@link #rdMax} bytes, above it Rabenseifner's algorithm on a power
 * of two of 4 ranks or more and the ring otherwise; exchanges up to {@link #pollLimit} bytes on the calling thread,
 * larger ones on blocking threads.
 *
 * @param algo       auto, ring, rd or rabenseifner
 * @param chunkBytes receives reduce in pieces of this size, so that reduction overlaps the transfer
 */
record SocketTuning(String algo, int chunkBytes, long rdMax, long pollLimit) {
    static final String AUTO = "auto";
    static final String RING = "ring";
    static final String RD = "rd";
    /**
     * Above {@link #RD_MAX} on a power of two of 4 ranks or more, Rabenseifner's algorithm instead of the ring: the same
     * bytes in 2 log2(n) steps instead of 2(n-1), 5-20 % faster on 4 ranks (docs/benchmarks.md#sockettuning). On 2
     * ranks the two move the same bytes in the same two steps, and the ring stays. Other rank counts would first fold
     * the extra ranks in (a whole-buffer step more), and keep the ring.
     */
    static final String RABENSEIFNER = "rabenseifner";
    /** 512 KiB pieces: large enough that a piece's syscalls are few, small enough to stay in L2 while reduced. */
    static final int DEFAULT_CHUNK = 512 << 10;
    /**
     * Recursive doubling sends the whole buffer log2(n) times, the ring 2(n-1)/n of it in 2(n-1) steps: rd wins
     * on latency up to here, the ring on bandwidth from 128 KiB (docs/benchmarks.md#sockettuning).
     */
    static final long RD_MAX = 64 << 10;
    /**
     * Exchanges up to this many bytes run on the rank's thread, as fast as the blocking threads or faster up to
     * here (docs/benchmarks.md#sockettuning); above it the blocking threads, one per connection and direction, keep
     * a NIC's several streams busy at once.
     */
    static final long POLL_LIMIT = 32L << 20;

    static SocketTuning of(String algo, long chunk) {
        return new SocketTuning(algo == null ? AUTO : algo, chunk <= 0 ? DEFAULT_CHUNK : (int) chunk, RD_MAX, POLL_LIMIT);
    }

    /** The all_reduce algorithm for this many bytes on this many ranks. */
    String allReduce(long bytes, int nranks) {
        if (nranks == 1) {
            return "local";
        }
        if (!algo.equals(AUTO)) {
            return algo;
        }
        if (bytes <= rdMax) {
            return RD;
        }
        return nranks >= 4 && Integer.bitCount(nranks) == 1 ? RABENSEIFNER : RING;
    }

    /** For the result's header: what the defaults chose, so that a number can be reproduced. */
    String describe() {
        String how = algo.equals(AUTO) ? "recursive doubling up to " + Sizes.human(rdMax) + ", above it rabenseifner on"
                + " 4, 8, 16... ranks and the ring otherwise (--socket-algo auto)"
                : (algo.equals(RD) ? "recursive doubling" : algo.equals(RING) ? "the ring" : "rabenseifner (recursive halving, then doubling)")
                + " at every size (--socket-algo " + algo + ")";
        return "socket all_reduce: " + how + "; reduction in pieces of " + Sizes.human(chunkBytes) + " (--socket-chunk);"
                + " exchanges up to " + Sizes.human(pollLimit) + " on the rank's thread, larger on blocking threads;"
                + " a sweep whose largest size is " + Sizes.human(SocketRankComm.HISTORY_BYTES) + " or more times its sizes on connections"
                + " made after the warm-ups, so that the warm-ups' large calls leave TCP no history";
    }
}
