package dev.ncclbench.rendezvous;

/** What went through the store, counted by the store itself: bytes and messages in and out, and those of rank 0. */
public final class StoreTraffic {
    long bytesIn;
    long bytesOut;
    long bytesOutToRank0;
    long messagesIn;
    long messagesOut;
    /** Connections with answers not yet written. */
    private int unflushed;

    /** A copy: [bytes in, bytes out, bytes out to rank 0, messages in, messages out]. */
    public synchronized long[] snapshot() {
        return new long[] {bytesIn, bytesOut, bytesOutToRank0, messagesIn, messagesOut};
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
