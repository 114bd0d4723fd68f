package dev.ncclbench.rendezvous;

/**
 * What went through the store, counted by the store itself: bytes and messages in and out, and the bytes written
 * to each rank, so that a test bounds what one rank receives (the rendezvous's addresses: O(its peers), not O(N)).
 * Updated by the store's one thread once per read or write call, read by others through the snapshots.
 */
public final class StoreTraffic {
    private long bytesIn;
    private long bytesOut;
    private long messagesIn;
    private long messagesOut;
    private final long[] bytesOutByRank;
    /** Connections with answers not yet written. */
    private int unflushed;

    StoreTraffic(int nranks) {
        this.bytesOutByRank = new long[nranks];
    }

    /** A copy: [bytes in, bytes out, bytes out to rank 0, messages in, messages out]. */
    public synchronized long[] snapshot() {
        return new long[] {bytesIn, bytesOut, bytesOutByRank.length == 0 ? 0 : bytesOutByRank[0], messagesIn, messagesOut};
    }

    /** A copy of the bytes written to each rank so far, by rank (a stranger's refusal is counted in none). */
    public synchronized long[] bytesOutByRank() {
        return bytesOutByRank.clone();
    }

    /** {@code bytes} read, holding {@code messages} whole requests. */
    synchronized void read(int bytes, int messages) {
        bytesIn += bytes;
        messagesIn += messages;
    }

    /** {@code bytes} written to the network. */
    synchronized void wrote(long bytes) {
        bytesOut += bytes;
    }

    /**
     * An answer of {@code bytes} (with its frame) queued for {@code rank} (-1: a connection that has not said who it
     * is). Counted when queued: one write carries the answers of a process's ranks together.
     */
    synchronized void wroteTo(int rank, long bytes) {
        if (rank >= 0) {
            bytesOutByRank[rank] += bytes;
        }
    }

    /** {@link #wroteTo} for ranks {@code first} to {@code first + count - 1}, each receiving {@code bytes}. */
    synchronized void wroteToEach(int first, int count, long bytes) {
        for (int r = first; r < first + count; r++) {
            bytesOutByRank[r] += bytes;
        }
    }

    /** An answer queued; {@code first}: on a connection that had nothing waiting. */
    synchronized void queued(boolean first) {
        messagesOut++;
        if (first) {
            unflushed++;
        }
    }

    /** A connection's answers all written (or dropped). */
    synchronized void flushed() {
        unflushed--;
        notifyAll();
    }

    /** Waits until every queued answer is written, at most {@code millis}: a closing store's last verdicts. */
    synchronized void awaitFlushed(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        while (unflushed > 0 && System.nanoTime() < end) {
            try {
                wait(Math.max(1, (end - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
