package dev.ncclbench.fleet;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What rank 0 hears from the nodes in the search, one thread a node: heartbeats and reports, each at most what the
 * node's largest order so far can produce ({@link Messages#maxReport}); one report a round is kept, for the round in
 * progress, and only for the node's own rank. A node that proved the job's token still cannot make rank 0 hold more
 * than one report of it, nor speak for another: one that tries is dropped, and its next round says why.
 */
final class NodeReports {
    /** How long {@link #awaitHangUps} waits for the nodes to hang up: a node that does not is closed all the same. */
    static final long HANG_UP_MILLIS = 5_000;

    /** A node lost while rank 0 read it, with why. */
    record Lost(int rank, String why) {
    }

    /** Reports kept and nodes lost, in the order they came: what a round waits on. */
    final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
    /** When each node was last heard (System.nanoTime). */
    final AtomicLongArray lastHeard;
    private final AtomicIntegerArray limit;
    private final AtomicIntegerArray kept;
    private volatile int roundNow;
    private final Map<Integer, String> dropped = new ConcurrentHashMap<>();
    /** The nodes still read: {@link #awaitHangUps} waits for them. */
    private final Set<Integer> reading = new HashSet<>();
    private volatile boolean closing;

    NodeReports(int world) {
        this.lastHeard = new AtomicLongArray(world);
        this.limit = new AtomicIntegerArray(world);
        for (int r = 0; r < world; r++) {
            limit.set(r, Messages.MAX_SHORT); // a heartbeat
        }
        this.kept = new AtomicIntegerArray(world);
    }

    /** Round {@code round} begins: its reports are the ones kept. */
    void round(int round) {
        roundNow = round;
    }

    /** {@code order} goes to {@code rank}: its report may be as long as the order can make it. */
    void ordered(int rank, Messages.Order order) {
        lastHeard.set(rank, System.nanoTime());
        limit.accumulateAndGet(rank, Messages.maxReport(order), Math::max);
    }

    /** Why {@code rank} was dropped for what it sent, or null. */
    String dropped(int rank) {
        return dropped.get(rank);
    }

    /** {@code rank} joined: it is read from now on ({@link #read} on its own thread). */
    void joined(int rank) {
        lastHeard.set(rank, System.nanoTime());
        synchronized (reading) {
            reading.add(rank);
        }
    }

    /** Reads {@code rank}'s connection until it closes or breaks the rules. */
    void read(int rank, Socket s, DataInputStream in) {
        try {
            while (true) {
                Messages.Report rep = Messages.read(in, Messages.Report.class, () -> limit.get(rank));
                lastHeard.set(rank, System.nanoTime());
                if (rep.rank() != rank) {
                    throw new java.net.ProtocolException("it sent a report for rank " + rep.rank());
                }
                if (!rep.heartbeat() && rep.round() == roundNow && kept.getAndSet(rank, rep.round()) != rep.round()) {
                    events.add(rep);
                }
            }
        } catch (java.io.EOFException | java.net.SocketException e) {
            if (!closing) {
                events.add(new Lost(rank, "its connection to rank 0 closed (process killed or crashed?)"));
            }
        } catch (IOException e) {
            // over its limit, garbled, or speaking for another: rank 0 reads no more of it, and closes it now (a node that
            // goes on writing must not hold rank 0's buffers); the next round says why
            String why = "rank 0 dropped its connection: " + e.getMessage();
            dropped.put(rank, why);
            try {
                s.close();
            } catch (IOException gone) {
                // it is gone either way
            }
            if (!closing) {
                events.add(new Lost(rank, why));
            }
        } finally {
            synchronized (reading) {
                reading.remove(rank);
                reading.notifyAll();
            }
        }
    }

    /** Waits up to {@link #HANG_UP_MILLIS} for every node read to hang up; from now on a node leaving is no loss. */
    void awaitHangUps() {
        closing = true;
        long end = System.nanoTime() + HANG_UP_MILLIS * 1_000_000L;
        synchronized (reading) {
            for (long left; !reading.isEmpty() && (left = (end - System.nanoTime()) / 1_000_000L) > 0; ) {
                try {
                    reading.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** The search is over: a node leaving now is no loss. */
    void close() {
        closing = true;
    }
}
