package dev.ncclbench.backend.socket;

import dev.ncclbench.spec.Sizes;

/**
 * How the socket backend moves an all_reduce, as a site reproduces a number: the algorithm (--socket-algo),
 * the piece size of the reducing receives (--socket-chunk), and the two crossovers chosen from measurements
 * (docs/benchmarks.md): recursive doubling up to {@link #rdMax} bytes, the ring above; exchanges up to
 * {@link #pollLimit} bytes on the calling thread, larger ones on blocking threads.
 *
 * @param algo       auto, ring or rd
 * @param chunkBytes receives reduce in pieces of this size, so that reduction overlaps the transfer
 */
record SocketTuning(String algo, int chunkBytes, long rdMax, long pollLimit) {
    static final String AUTO = "auto";
    static final String RING = "ring";
    static final String RD = "rd";
    /** 512 KiB pieces: large enough that a piece's syscalls are few, small enough to stay in L2 while reduced. */
    static final int DEFAULT_CHUNK = 512 << 10;
    /**
     * Recursive doubling sends the whole buffer log2(n) times, the ring 2(n-1)/n of it in 2(n-1) steps: on 2
     * ranks rd took 17-18 us at 32 KiB (ring 26-34) and the ring won from 128 KiB (55-66 us against 76-81).
     */
    static final long RD_MAX = 64 << 10;
    /**
     * Exchanges up to this many bytes run on the rank's thread. On loopback (2 cores, 2 ranks) that thread was
     * as fast as the blocking threads or faster up to 32 MiB (8 MiB: 3.9-4.5 ms against 4.8-10 ms); above it
     * the blocking threads, one per connection and direction, keep a NIC's several streams busy at once.
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
        return bytes <= rdMax ? RD : RING;
    }

    /** For the result's header: what the defaults chose, so that a number can be reproduced. */
    String describe() {
        String how = algo.equals(AUTO) ? "recursive doubling up to " + Sizes.human(rdMax) + ", the ring above (--socket-algo auto)"
                : (algo.equals(RD) ? "recursive doubling" : "the ring") + " at every size (--socket-algo " + algo + ")";
        return "socket all_reduce: " + how + "; reduction in pieces of " + Sizes.human(chunkBytes) + " (--socket-chunk);"
                + " exchanges up to " + Sizes.human(pollLimit) + " on the rank's thread, larger on blocking threads;"
                + " a sweep whose largest size is " + Sizes.human(SocketRankComm.HISTORY_BYTES) + " or more times its sizes on connections"
                + " made after the warm-ups, so that the warm-ups' large calls leave TCP no history";
    }
}
