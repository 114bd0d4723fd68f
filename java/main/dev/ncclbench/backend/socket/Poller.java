package dev.ncclbench.backend.socket;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Small and middle exchanges on the calling thread, with non-blocking sockets: every send and receive moves
 * as far as the kernel lets it, in turn, until all are done. No thread hand-off and no blocking wake-up per
 * step: while nothing can move the thread polls, yielding the CPU between passes (loopback and a fast fabric
 * answer in microseconds). It parks in a selector only when other threads are waiting for a CPU
 * ({@link RunQueue}), which it asks every {@link #SPIN_NANOS} of idling and after every late yield.
 *
 * <p>It polls because a blocking wake-up per step was most of an 8 B all_reduce; it yields rather than spins so a
 * rank sharing a CPU with its peer hands it over; it does not park whenever the peer is slow because two parked
 * ranks then take turns waking each other (docs/benchmarks.md#poller). When a yield comes back late, other threads
 * may have wanted the CPU (a loaded machine), or the host took it from this VM: the run queue tells which, and the
 * thread parks only in the first case.
 *
 * <p>Where this JVM holds more rank threads than it has CPUs (--ranks 64 on a 2-core node), an idle rank parks at once:
 * its partner is then most likely not on a CPU, and polling, even yielding, only keeps it off one. 16 processes of 64
 * ranks on 2 cores took 0.5 s an 8 B all_reduce that way (docs/benchmarks.md#poller). With as many rank threads as
 * CPUs or fewer, nothing changes.
 *
 * <p>The sockets stay non-blocking between exchanges; {@link #toBlocking} hands them back to the blocking
 * path that moves large exchanges on several threads (faster there than any selector loop).
 */
final class Poller {
    /**
     * How often an idle exchange asks the run queue whether to park, and so how long it idles before it parks on a
     * crowded machine: 1 ms had a third of the slow samples that 100 us had (docs/benchmarks.md#poller).
     */
    static final long SPIN_NANOS = 1_000_000;
    /** A yield this long means the CPU went elsewhere for a while: another thread, or the host. */
    private static final long PREEMPTED_NANOS = 40_000;
    /** The longest park between checks of the abort flag (an abort also wakes the selector). */
    private static final long PARK_MILLIS = 100;

    /** This JVM's CPUs, and its pollers (one per rank thread) not yet closed: see {@link #oversubscribed}. */
    private static final int CPUS = Runtime.getRuntime().availableProcessors();
    private static final AtomicInteger OPEN = new AtomicInteger();

    private final SocketChannel[][] channels;
    private final int perPeer;
    private final RunQueue runQueue = RunQueue.open();
    private Selector selector;
    private SelectionKey[][] keys;
    /** The keys registered so far, so that a park touches those, not a row for every rank of the job. */
    private final List<SelectionKey> registered = new java.util.ArrayList<>();
    private boolean closed;
    /** Parks and yields so far (tests: an oversubscribed rank parks and never yields). */
    private volatile int parks;
    private long yields;
    private boolean nonBlocking;

    // one exchange's transfers, flattened: a send, a receive or a reducing receive of one slice each
    private int count;
    private SocketChannel[] ch = new SocketChannel[8];
    private ByteBuffer[] buf = new ByteBuffer[8];
    private Xfer[] owner = new Xfer[8];
    private int[] conn = new int[8];
    private byte[] kind = new byte[8];
    /**
     * A reducing receive: the next byte of the slice to reduce into, the slice's end, and what the piece in flight
     * is read into: the mesh's piece buffer from its start, or (out of place, see {@link Xfer#intoRegion}) the
     * slice itself at {@code pos}, where it is then reduced while still in the cache: through the piece buffer the
     * result's lines came from memory only to be overwritten, as on the blocking path ({@link Mesh}). Here the gain
     * is within the noise (docs/benchmarks.md#poller), and no path of the ring reads a piece buffer it need not.
     */
    private int[] pos = new int[8];
    private int[] end = new int[8];
    private ByteBuffer[] piece = new ByteBuffer[8];
    /** 0 when piece t is the mesh's piece buffer, -1 when it is the slice itself (the piece then starts at pos). */
    private int[] intoSlice = new int[8];
    /** The size of a reducing receive's pieces (--socket-chunk). */
    private final int pieceBytes;
    /** This thread's reductions' heap blocks. */
    private final Reducer.Staging staging = new Reducer.Staging();
    /**
     * 1 when transfer t is done, else 0, set without a branch ({@link #finished}): a transfer's end is a condition
     * that small sizes always meet at once (a 512 KiB slice is one piece, a write takes it whole), so compiled
     * code kept only that outcome and deoptimised the first time an 8 MiB slice needed a second piece, inside the
     * timed loop (the warm-up's sizes cannot show every outcome of every size). For the same reason a step
     * returns the bytes it moved, not whether it moved any: a full socket buffer is a large size's outcome only.
     */
    private byte[] done = new byte[8];

    private static final byte SEND = 0;
    private static final byte RECV = 1;
    private static final byte REDUCE = 2;

    Poller(SocketChannel[][] channels, int perPeer, int pieceBytes) {
        this.channels = channels;
        this.perPeer = perPeer;
        this.pieceBytes = pieceBytes;
        OPEN.incrementAndGet();
    }

    /** Whether this JVM's rank threads outnumber its CPUs: then an idle rank parks at once instead of polling. */
    static boolean oversubscribed() {
        return OPEN.get() > CPUS;
    }

    /**
     * Runs every transfer to its end.
     *
     * @param mesh gives the slices of a transfer, the pieces reducing receives read into, and the abort flag
     */
    void run(List<Xfer> sends, List<Xfer> recvs, Mesh mesh) throws IOException {
        toNonBlocking();
        count = 0;
        for (int i = 0; i < sends.size(); i++) {
            add(sends.get(i), SEND, mesh);
        }
        for (int i = 0; i < recvs.size(); i++) {
            Xfer x = recvs.get(i);
            add(x, x.reducer() == null ? RECV : REDUCE, mesh);
        }
        int left = count;
        long idleSince = 0;
        boolean late = false;
        while (left > 0) {
            int moved = 0;
            for (int t = 0; t < count; t++) {
                if (done[t] != 0) {
                    continue;
                }
                moved |= step(t);
                left -= done[t];
            }
            if (moved != 0 || left == 0) {
                idleSince = 0;
                continue;
            }
            if (mesh.aborted()) {
                throw new IOException("the socket mesh was aborted");
            }
            if (oversubscribed()) {
                park();
                continue;
            }
            long now = System.nanoTime();
            if (idleSince == 0) {
                idleSince = now;
            } else if (late || now - idleSince >= SPIN_NANOS) {
                if (runQueue.crowded()) {
                    // others want a CPU, and polling on would only keep them waiting
                    park();
                    idleSince = 0;
                    late = false;
                    continue;
                }
                // every thread that wants a CPU has one (a late yield was the host's, not this machine's):
                // polling on costs no one anything, and a parked vCPU is slow to wake
                idleSince = now;
            }
            Thread.yield();
            yields++;
            late = System.nanoTime() - now > PREEMPTED_NANOS;
        }
    }

    private void add(Xfer x, byte k, Mesh mesh) {
        mesh.slices(x);
        for (int i = 0; i < x.slices.length; i++) {
            if (x.sliceEnd[i] == x.sliceStart[i]) {
                continue;
            }
            grow();
            int t = count++;
            ch[t] = channels[x.peer()][i];
            buf[t] = x.slice(i);
            owner[t] = x;
            conn[t] = x.peer() * perPeer + i;
            kind[t] = k;
            pos[t] = x.sliceStart[i];
            end[t] = x.sliceEnd[i];
            boolean into = k == REDUCE && x.intoRegion();
            piece[t] = k != REDUCE ? null : into ? buf[t] : mesh.piece(x.peer(), i);
            intoSlice[t] = into ? -1 : 0;
            if (k == REDUCE) {
                // empty: the first step starts a piece
                if (into) {
                    piece[t].limit(pos[t]);
                } else {
                    piece[t].clear().limit(0);
                }
            }
            done[t] = 0;
        }
    }

    /** Moves transfer t as far as the socket allows; returns the bytes moved (no compare: see {@link #done}). */
    private int step(int t) throws IOException {
        switch (kind[t]) {
            case SEND: {
                int w = ch[t].write(buf[t]);
                done[t] = finished(buf[t].remaining());
                return w;
            }
            case RECV: {
                int r = ch[t].read(buf[t]);
                if (r < 0) {
                    throw new IOException("connection closed by the peer");
                }
                done[t] = finished(buf[t].remaining());
                return r;
            }
            default: {
                ByteBuffer p = piece[t];
                // where the piece lands: 0 in the piece buffer, pos in the slice (no branch: see done)
                int at = pos[t] & intoSlice[t];
                if (!p.hasRemaining()) {
                    p.limit(at + Math.min(pieceBytes, end[t] - pos[t])).position(at);
                }
                int r = ch[t].read(p);
                if (r < 0) {
                    throw new IOException("connection closed by the peer");
                }
                if (!p.hasRemaining()) {
                    Xfer x = owner[t];
                    int n = p.limit() - at;
                    x.reducer().reduce(buf[t], pos[t], x.reduceA(), x.reduceAOffset() + (pos[t] - x.start()), p, at, n, staging);
                    pos[t] += n;
                    done[t] = finished(end[t] - pos[t]);
                }
                return r;
            }
        }
    }

    /** 1 when nothing is left ({@code left} is never negative), else 0, by arithmetic rather than a compare. */
    private static byte finished(int left) {
        return (byte) ((left - 1) >>> 31);
    }

    /** Waits in the selector until one of the unfinished transfers can move (or the park times out). */
    private void park() throws IOException {
        if (selector == null) {
            selector = Selector.open();
            keys = new SelectionKey[channels.length][perPeer];
            registered.clear();
        }
        for (int i = 0; i < registered.size(); i++) {
            SelectionKey k = registered.get(i);
            if (k.isValid()) {
                k.interestOps(0);
            }
        }
        for (int t = 0; t < count; t++) {
            if (done[t] != 0) {
                continue;
            }
            int peer = conn[t] / perPeer;
            int i = conn[t] % perPeer;
            SelectionKey k = keys[peer][i];
            int ops = kind[t] == SEND ? SelectionKey.OP_WRITE : SelectionKey.OP_READ;
            if (k == null || !k.isValid()) {
                keys[peer][i] = ch[t].register(selector, ops, conn[t]);
                registered.add(keys[peer][i]);
            } else {
                k.interestOps(k.interestOps() | ops);
            }
        }
        parks++;
        selector.select(PARK_MILLIS);
        selector.selectedKeys().clear();
    }

    private void toNonBlocking() throws IOException {
        if (nonBlocking) {
            return;
        }
        for (SocketChannel[] row : channels) {
            if (row != null) {
                for (SocketChannel c : row) {
                    if (c != null) {
                        c.configureBlocking(false);
                    }
                }
            }
        }
        nonBlocking = true;
    }

    /** Back to blocking sockets for the threaded path: a channel must leave the selector first. */
    void toBlocking() throws IOException {
        if (!nonBlocking) {
            return;
        }
        if (selector != null) {
            for (int i = 0; i < registered.size(); i++) {
                SelectionKey k = registered.get(i);
                k.cancel();
                int c = (Integer) k.attachment();
                keys[c / perPeer][c % perPeer] = null;
            }
            registered.clear();
            selector.selectNow();
        }
        for (SocketChannel[] row : channels) {
            if (row != null) {
                for (SocketChannel c : row) {
                    if (c != null) {
                        c.configureBlocking(true);
                    }
                }
            }
        }
        nonBlocking = false;
    }

    /**
     * Before the mesh's connections are replaced ({@link Mesh#reconnect}): drops the selector, whose keys belong to
     * the old connections, and takes the new ones as blocking, as they are made.
     */
    void forget() throws IOException {
        Selector s = selector;
        selector = null;
        keys = null;
        registered.clear();
        nonBlocking = false;
        if (s != null) {
            s.close();
        }
    }

    int parks() {
        return parks;
    }

    long yields() {
        return yields;
    }

    /** Wakes a parked exchange (the mesh is being aborted). */
    void wakeup() {
        Selector s = selector;
        if (s != null) {
            s.wakeup();
        }
    }

    void close() {
        if (!closed) {
            closed = true;
            OPEN.decrementAndGet();
        }
        runQueue.close();
        Selector s = selector;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing: nothing left to tell
            }
        }
    }

    private void grow() {
        if (count < ch.length) {
            return;
        }
        int n = ch.length * 2;
        ch = java.util.Arrays.copyOf(ch, n);
        buf = java.util.Arrays.copyOf(buf, n);
        owner = java.util.Arrays.copyOf(owner, n);
        conn = java.util.Arrays.copyOf(conn, n);
        kind = java.util.Arrays.copyOf(kind, n);
        pos = java.util.Arrays.copyOf(pos, n);
        end = java.util.Arrays.copyOf(end, n);
        piece = java.util.Arrays.copyOf(piece, n);
        intoSlice = java.util.Arrays.copyOf(intoSlice, n);
        done = java.util.Arrays.copyOf(done, n);
    }
}
