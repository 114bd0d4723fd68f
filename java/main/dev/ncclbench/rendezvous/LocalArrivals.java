package dev.ncclbench.rendezvous;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A process's local ranks arriving at one gather, sent to the store as one request ({@link Wire#OP_GATHERS}): the last
 * local rank to arrive sends for all, so a gather of 1024 nodes x 8 ranks costs the store 1024 requests, not 8192.
 * A local rank that is late (or hangs) does not hold the others back: the first to arrive waits {@link #LINGER_NANOS}
 * at most, then sends the arrivals it has, and the late one goes on its own. The store still sees each rank arrive, so
 * a hung rank is named, alone, as before.
 */
final class LocalArrivals {
    /**
     * How long the first local rank at a gather waits for the others before sending what it has: ranks that measured
     * together arrive within microseconds; a rank later than this costs one more request, never a wrong name.
     */
    static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    /** One rank's part of a gather. */
    record Arrival(int rank, byte[] payload, int[] peers) {
    }

    /** The arrivals at one tag not yet sent, and how many of the process's ranks have been sent already. */
    private static final class Pending {
        List<Arrival> waiting = new ArrayList<>();
        int sent;
        boolean lingering;
    }

    /** Writes a request on the process's connection. */
    interface Sender {
        void send(int rank, byte[] request) throws IOException;
    }

    private final int count;
    private final long lingerNanos;
    private final Sender sender;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition sent = lock.newCondition();
    private final Map<String, Pending> open = new HashMap<>();

    LocalArrivals(int count, Sender sender) {
        this(count, LINGER_NANOS, sender);
    }

    LocalArrivals(int count, long lingerNanos, Sender sender) {
        this.count = count;
        this.lingerNanos = lingerNanos;
        this.sender = sender;
    }

    /** {@code a} arrives at {@code tag}; returns once its arrival is on its way to the store (alone or with others). */
    void arrive(String tag, int mode, int root, Arrival a) throws IOException {
        List<Arrival> go = null;
        lock.lock();
        try {
            Pending p = open.computeIfAbsent(tag, t -> new Pending());
            p.waiting.add(a);
            if (p.sent + p.waiting.size() >= count) {
                go = take(tag, p);
            } else if (!p.lingering) {
                p.lingering = true;
                long left = lingerNanos;
                List<Arrival> mine = p.waiting;
                while (p.waiting == mine && left > 0) {
                    left = sent.awaitNanos(left);
                }
                p.lingering = false;
                if (p.waiting == mine) {
                    go = take(tag, p); // the others are late: send what has arrived
                }
            }
            // else: the rank lingering (or the last to arrive) sends this arrival
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted at '" + tag + "'");
        } finally {
            lock.unlock();
        }
        if (go != null) {
            sender.send(go.get(0).rank(), request(tag, mode, root, go));
        }
    }

    /** The arrivals to send now; the tag is done once every local rank has been sent. */
    private List<Arrival> take(String tag, Pending p) {
        List<Arrival> go = p.waiting;
        p.sent += go.size();
        p.waiting = new ArrayList<>();
        if (p.sent >= count) {
            open.remove(tag);
        }
        sent.signalAll();
        return go;
    }

    /** OP_GATHERS: mode, root, tag, how many, then each rank, its payload and (under PEERS) the ranks it asks. */
    static byte[] request(String tag, int mode, int root, List<Arrival> arrivals) {
        // sized first and written in one buffer: a node's request at every size of a sweep, 8 payloads each (through
        // StoreLink.request's streams the simulated nodes of an 8192-rank run spent 10-18 ms more CPU a size, 4 pairs)
        byte[] t = tag.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        long size = 20L + t.length;
        for (Arrival a : arrivals) {
            size += 8L + a.payload().length + (mode == Wire.PEERS ? 4L + 4L * a.peers().length : 0);
        }
        if (size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a request of " + size + " bytes");
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate((int) size);
        b.putInt(Wire.OP_GATHERS).putInt(mode).putInt(root).putInt(t.length).put(t).putInt(arrivals.size());
        for (Arrival a : arrivals) {
            b.putInt(a.rank()).putInt(a.payload().length).put(a.payload());
            if (mode == Wire.PEERS) {
                b.putInt(a.peers().length);
                for (int p : a.peers()) {
                    b.putInt(p);
                }
            }
        }
        return b.array();
    }
}
