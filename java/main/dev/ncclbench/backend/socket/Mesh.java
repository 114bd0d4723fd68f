package dev.ncclbench.backend.socket;

import dev.ncclbench.ExitCode;
import dev.ncclbench.HangReport;
import dev.ncclbench.backend.BackendException;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One rank's TCP connections to every other rank, {@code k} per pair, and the one primitive the collectives
 * are built on: {@link #exchange}, which runs a set of sends and receives concurrently, each split over the
 * pair's connections, receives optionally reducing piece by piece as the bytes arrive.
 */
final class Mesh implements AutoCloseable {
    /** Receives reduce in pieces of this size so that reduction overlaps the transfer. */
    static final int PIECE = 1 << 19;
    /** Below this a transfer uses one connection: splitting costs more than it gains. */
    static final long SPLIT_THRESHOLD = 64 << 10;

    private final int rank;
    private final int nranks;
    private final int perPeer;
    private final SocketChannel[][] channels;
    private final ExecutorService pool;
    private final long timeoutMillis;
    private final ByteBuffer[] pieces;
    private volatile boolean aborted;
    private volatile boolean timedOut;
    /** When the exchange in progress started (System.nanoTime), 0 when idle: what the watchdog looks at. */
    private volatile long busySince;
    /** The peer the rank is waiting on, for the message when it fails. */
    private volatile int waitingOn = -1;

    /** Transfers up to this many bytes in all run inline, without a thread hand-off: small-message latency. */
    static final long INLINE_LIMIT = 256 << 10;
    private static final Watchdog WATCHDOG = new Watchdog();

    /**
     * One daemon thread for every mesh of the process: it aborts a mesh whose exchange has run past the
     * timeout. Aborting closes the sockets, which wakes the blocked reads and writes with an exception.
     */
    private static final class Watchdog {
        private final java.util.Set<Mesh> meshes = java.util.Collections.newSetFromMap(new java.util.concurrent.ConcurrentHashMap<>());
        private volatile boolean started;

        void watch(Mesh m) {
            if (meshes.add(m) && !started) {
                synchronized (this) {
                    if (!started) {
                        Thread t = new Thread(this::loop, "ncclbench-socket-watchdog");
                        t.setDaemon(true);
                        t.start();
                        started = true;
                    }
                }
            }
        }

        private void loop() {
            while (true) {
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
                long now = System.nanoTime();
                for (Mesh m : meshes) {
                    if (m.aborted) {
                        meshes.remove(m);
                        continue;
                    }
                    long since = m.busySince;
                    if (since != 0 && now - since > m.timeoutMillis * 1_000_000L) {
                        m.timedOut = true;
                        m.abort();
                        meshes.remove(m);
                    }
                }
            }
        }
    }

    /** A send or a receive: a peer and a region ({@code position..limit}); for a reducing receive, dst = a op incoming. */
    record Xfer(int peer, ByteBuffer region, ByteBuffer reduceA, long reduceAOffset, Reducer reducer) {
        static Xfer send(int peer, ByteBuffer region) {
            return new Xfer(peer, region, null, 0, null);
        }

        static Xfer recv(int peer, ByteBuffer region) {
            return new Xfer(peer, region, null, 0, null);
        }

        /** Receive into region, storing {@code a[aOffset + i] op incoming[i]}. */
        static Xfer recvReduce(int peer, ByteBuffer region, ByteBuffer a, long aOffset, Reducer reducer) {
            return new Xfer(peer, region, a, aOffset, reducer);
        }
    }

    private Mesh(int rank, int nranks, int perPeer, SocketChannel[][] channels, long timeoutMillis) {
        this.rank = rank;
        this.nranks = nranks;
        this.perPeer = perPeer;
        this.channels = channels;
        this.timeoutMillis = timeoutMillis;
        this.pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "ncclbench-rank" + rank + "-io");
            t.setDaemon(true);
            return t;
        });
        this.pieces = new ByteBuffer[nranks * perPeer];
    }

    /**
     * Builds the full mesh (see {@link MeshLinks}): rank r connects to every higher rank, accepts from every lower one.
     *
     * @param addresses every rank's listening address, by rank
     */
    static Mesh connect(int rank, int nranks, int perPeer, ServerSocketChannel listener,
                        List<InetSocketAddress> addresses, long timeoutMillis) {
        return new Mesh(rank, nranks, perPeer, MeshLinks.connect(rank, nranks, perPeer, listener, addresses, timeoutMillis),
                timeoutMillis);
    }

    int rank() {
        return rank;
    }

    int nranks() {
        return nranks;
    }

    /**
     * Runs every transfer and waits for all. Small transfers run inline, sends first (they fit the kernel's
     * socket buffers, so they cannot block on the peer); large ones run concurrently, each split over the
     * pair's connections. A peer that closes or resets aborts the whole mesh, so that the other ranks fail
     * fast too; a peer silent for the timeout trips the watchdog, which aborts it the same way.
     *
     * @param what for messages, e.g. "all_reduce 64 MiB"
     */
    void exchange(List<Xfer> sends, List<Xfer> recvs, String what) {
        if (aborted) {
            throw new BackendException(ExitCode.RUN_FAILED, "rank " + rank + ": the socket mesh was aborted earlier", null);
        }
        long total = 0;
        for (Xfer x : sends) {
            total += x.region().remaining();
        }
        for (Xfer x : recvs) {
            total += x.region().remaining();
        }
        busySince = System.nanoTime();
        WATCHDOG.watch(this);
        try {
            if (total <= INLINE_LIMIT) {
                // Same slices on the same connections as the concurrent path: the two ends of a transfer may
                // choose differently between inline and concurrent (a gather's root receives from every rank,
                // each sender sends one block), so the wire layout must depend on the transfer alone.
                for (Xfer x : sends) {
                    waitingOn = x.peer();
                    ByteBuffer[] slices = slices(x.region());
                    for (int i = 0; i < slices.length; i++) {
                        writeFully(channels[x.peer()][i], slices[i]);
                    }
                }
                for (Xfer x : recvs) {
                    waitingOn = x.peer();
                    ByteBuffer[] slices = slices(x.region());
                    int start = x.region().position();
                    for (int i = 0; i < slices.length; i++) {
                        run(x, false, slices[i].position() - start, i, slices[i]);
                    }
                }
            } else {
                concurrent(sends, recvs);
            }
        } catch (IOException | RuntimeException e) {
            abort();
            if (timedOut) {
                throw new BackendException(ExitCode.TIMEOUT, HangReport.didNotReach(List.of(waitingOn), what, timeoutMillis)
                        + " (seen by rank " + rank + ": that rank stopped, or the network dropped)",
                        "see that rank's log; -T sets the limit", e);
            }
            if (e instanceof BackendException be) {
                throw be;
            }
            throw new BackendException(ExitCode.RUN_FAILED, "rank " + rank + ": lost rank " + waitingOn + " during " + what
                    + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()), null, e);
        } finally {
            busySince = 0;
        }
    }

    private void concurrent(List<Xfer> sends, List<Xfer> recvs) throws IOException {
        List<Future<?>> futures = new ArrayList<>();
        List<Integer> peers = new ArrayList<>();
        for (Xfer x : sends) {
            submitSplit(x, true, futures, peers);
        }
        for (Xfer x : recvs) {
            submitSplit(x, false, futures, peers);
        }
        for (int i = 0; i < futures.size(); i++) {
            waitingOn = peers.get(i);
            try {
                futures.get(i).get();
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                throw c instanceof IOException io ? io : new IOException(c.toString(), c);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
    }

    /**
     * A transfer's slices, slice i for connection i: a function of the region's length only, so that sender
     * and receiver agree on which bytes travel on which connection whatever else each of them is doing.
     */
    private ByteBuffer[] slices(ByteBuffer region) {
        int start = region.position();
        int bytes = region.remaining();
        int ways = bytes < SPLIT_THRESHOLD ? 1 : perPeer;
        int base = bytes / ways;
        // element-aligned for every type (8 is a multiple of every element size)
        base -= base % 8;
        ByteBuffer[] out = new ByteBuffer[ways];
        int from = start;
        for (int i = 0; i < ways; i++) {
            int to = i == ways - 1 ? start + bytes : from + base;
            ByteBuffer slice = region.duplicate().order(ByteOrder.nativeOrder());
            slice.limit(to).position(from);
            out[i] = slice;
            from = to;
        }
        return out;
    }

    private void submitSplit(Xfer x, boolean send, List<Future<?>> futures, List<Integer> peers) {
        ByteBuffer[] slices = slices(x.region());
        int start = x.region().position();
        for (int i = 0; i < slices.length; i++) {
            ByteBuffer slice = slices[i];
            int index = i;
            long skip = slice.position() - start;
            Callable<Void> task = () -> {
                run(x, send, skip, index, slice);
                return null;
            };
            futures.add(pool.submit(task));
            peers.add(x.peer());
        }
    }

    /** One transfer (or one slice of it) on connection {@code index}; {@code skip}: the slice's offset in the region. */
    private void run(Xfer x, boolean send, long skip, int index, ByteBuffer slice) throws IOException {
        SocketChannel ch = channels[x.peer()][index];
        if (send) {
            writeFully(ch, slice);
        } else if (x.reducer() == null) {
            readFully(ch, slice);
        } else {
            readReduce(ch, slice, x.reduceA(), x.reduceAOffset() + skip, x.reducer(), piece(x.peer(), index));
        }
    }

    private synchronized ByteBuffer piece(int peer, int index) {
        int k = peer * perPeer + index;
        if (pieces[k] == null) {
            pieces[k] = ByteBuffer.allocateDirect(PIECE).order(ByteOrder.nativeOrder());
        }
        return pieces[k];
    }

    private static void writeFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    private static void readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("connection closed by the peer");
            }
        }
    }

    private static void readReduce(SocketChannel ch, ByteBuffer dst, ByteBuffer a, long aOffset, Reducer reducer,
                                   ByteBuffer piece) throws IOException {
        int pos = dst.position();
        int end = dst.limit();
        while (pos < end) {
            int n = Math.min(PIECE, end - pos);
            piece.clear().limit(n);
            readFully(ch, piece);
            reducer.reduce(dst, pos, a, aOffset + (pos - dst.position()), piece, 0, n);
            pos += n;
        }
    }

    /** Closes every connection: peers blocked on us fail at once instead of waiting for their timeout. */
    void abort() {
        aborted = true;
        closeAll(channels);
        pool.shutdownNow();
    }

    @Override
    public void close() {
        aborted = true;
        closeAll(channels);
        pool.shutdownNow();
    }

    private static void closeAll(SocketChannel[][] ch) {
        MeshLinks.closeAll(ch);
    }
}
