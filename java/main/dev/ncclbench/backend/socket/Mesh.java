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
    /** Below this a transfer uses one connection: splitting costs more than it gains. */
    static final long SPLIT_THRESHOLD = 64 << 10;

    /** New connections' first exchanges, see {@link #breakIn}. */
    static final int BREAK_IN_EXCHANGES = 256;
    static final int BREAK_IN_BULK = 64;
    static final int BREAK_IN_BULK_BYTES = 256 << 10;

    private final int rank;
    private final int nranks;
    private final int perPeer;
    private final SocketChannel[][] channels;
    private final ExecutorService pool;
    private final long timeoutMillis;
    /** Where the lower ranks dial again ({@link #reconnect}); this mesh closes it. */
    private final ServerSocketChannel listener;
    private final List<InetSocketAddress> addresses;
    /** The peers this rank has links to ({@link Peers}); an exchange with another is a planning error. */
    private final boolean[] linked;
    private final ByteBuffer[] pieces;
    /** The heap blocks of each connection's reducing reader (one thread at a time per connection). */
    private final Reducer.Staging[] staging;
    /** Receives reduce in pieces of this size, so that reduction overlaps the transfer (--socket-chunk). */
    private final int pieceBytes;
    /** Exchanges up to this many bytes in all run on the calling thread (see {@link Poller}); larger ones on threads. */
    private final long pollLimit;
    private final Poller poller;
    private volatile boolean aborted;
    private volatile boolean timedOut;
    /** When the exchange in progress started (System.nanoTime), 0 when idle: what the watchdog looks at. */
    private volatile long busySince;
    /** The peer the rank is waiting on, for the message when it fails. */
    private volatile int waitingOn = -1;

    private Mesh(int rank, int nranks, int perPeer, SocketChannel[][] channels, long timeoutMillis, SocketTuning tuning,
                 ServerSocketChannel listener, List<InetSocketAddress> addresses, boolean[] linked) {
        this.rank = rank;
        this.linked = linked.clone();
        this.listener = listener;
        this.addresses = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(addresses)); // null: no link
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
        this.staging = new Reducer.Staging[nranks * perPeer];
        this.pieceBytes = tuning.chunkBytes();
        this.pollLimit = tuning.pollLimit();
        this.poller = new Poller(channels, perPeer, pieceBytes);
        MeshWatchdog.INSTANCE.watch(this);
    }

    /**
     * Builds the mesh of the links to {@code linked} ({@link Peers#needed}, or {@link Peers#all}; see {@link MeshLinks}).
     *
     * @param listener  this rank's listening socket: the mesh keeps it open for {@link #reconnect} and closes it
     * @param addresses the listening address of every rank in {@code linked}, by rank (null for the others)
     */
    static Mesh connect(int rank, int nranks, int perPeer, ServerSocketChannel listener,
                        List<InetSocketAddress> addresses, long timeoutMillis, SocketTuning tuning, boolean[] linked) {
        return new Mesh(rank, nranks, perPeer, MeshLinks.connect(rank, nranks, perPeer, listener, addresses, timeoutMillis,
                linked), timeoutMillis, tuning, listener, addresses, linked);
    }

    /** How many TCP connections this rank holds: links to the peers its collectives use, times --sockets-per-peer. */
    int connections() { return MeshLinks.count(channels); }
    int peers() { return MeshLinks.peers(channels); } // the ranks it holds a link to

    /**
     * Closes every connection and connects the mesh again, as at the start: every rank calls it at the same point,
     * with no exchange in flight (after a barrier). A TCP connection keeps what its history taught it, and the
     * warm-ups' large calls left the connections slow (docs/benchmarks.md#mesh). The timed sizes then see only what
     * the sweep itself sent, as a fresh job's would.
     */
    void reconnect() {
        requireNotAborted();
        try {
            poller.forget();
        } catch (IOException e) {
            throw new BackendException(ExitCode.RUN_FAILED, "rank " + rank + ": could not release the old connections: "
                    + e.getMessage(), null, e);
        }
        MeshLinks.closeAll(channels);
        SocketChannel[][] fresh = MeshLinks.connect(rank, nranks, perPeer, listener, addresses, timeoutMillis, linked);
        // in place: the poller and the blocking path read the same rows
        for (int peer = 0; peer < nranks; peer++) {
            System.arraycopy(fresh[peer], 0, channels[peer], 0, perPeer);
        }
        breakIn(8, BREAK_IN_EXCHANGES);
        // split over the pair's links as a collective's transfers are: each link carries BREAK_IN_BULK_BYTES
        breakIn(BREAK_IN_BULK_BYTES * perPeer, BREAK_IN_BULK);
    }

    /**
     * Exchanges of {@code bytes} with every peer, {@code rounds} times, on new connections before any timed call,
     * through {@link #exchange} as the collectives' own (blocking socket calls would take a path through the JDK
     * that the timed code does not, and change what the compiler knows of it). What a new TCP connection does
     * once, in its first exchanges, would otherwise land in the first timed loops, the same iterations in every run
     * (docs/benchmarks.md#mesh; also why only a sweep with large sizes reconnects,
     * {@link SocketRankComm#HISTORY_BYTES}).
     * The cost: 16 MiB each way a link, about 10-20 ms on loopback and 0.3 s a link pair at 1 Gbit/s.
     */
    private void breakIn(int bytes, int rounds) {
        ByteBuffer out = ByteBuffer.allocateDirect(bytes);
        ByteBuffer in = ByteBuffer.allocateDirect(bytes * Math.max(1, Peers.count(linked)));
        List<Xfer> sends = new ArrayList<>();
        List<Xfer> recvs = new ArrayList<>();
        for (int peer = 0, k = 0; peer < nranks; peer++) {
            if (peer != rank && linked[peer]) {
                sends.add(Xfer.send(peer, out.duplicate()));
                recvs.add(Xfer.recv(peer, in.duplicate().position(k * bytes).limit(++k * bytes)));
            }
        }
        for (int r = 0; r < rounds; r++) {
            exchange(sends, recvs, "the new connections' first exchanges");
        }
    }

    /** Fails once the mesh is aborted: also called between pieces of a rank's own long work (fill, check). */
    void requireNotAborted() {
        if (aborted) {
            throw new BackendException(ExitCode.RUN_FAILED, "rank " + rank + ": the socket mesh was aborted earlier", null);
        }
    }

    /** Link {@code index} to {@code peer} as it is now (tests). */
    SocketChannel link(int peer, int index) {
        return channels[peer][index];
    }

    int rank() {
        return rank;
    }

    int nranks() {
        return nranks;
    }

    boolean aborted() {
        return aborted;
    }

    /** Whether the exchange in progress has run past the timeout at {@code now} (System.nanoTime). */
    boolean overdue(long now) {
        long since = busySince;
        return since != 0 && now - since > timeoutMillis * 1_000_000L;
    }

    /** The watchdog's verdict: the exchange in progress fails as a timeout. */
    void timeOut() {
        timedOut = true;
        abort();
    }

    /**
     * Runs every transfer and waits for all. Up to {@link SocketTuning#pollLimit()} bytes in all, on the calling
     * thread with non-blocking sockets ({@link Poller}); larger exchanges concurrently on blocking sockets, each
     * transfer split over the pair's connections. A peer that closes or resets aborts the whole mesh, so that
     * the other ranks fail fast too; a peer silent for the timeout trips the watchdog, which aborts it the same way.
     *
     * @param what for messages, e.g. "all_reduce 64 MiB"
     */
    void exchange(List<Xfer> sends, List<Xfer> recvs, String what) {
        requireNotAborted();
        Peers.requireLinked(linked, rank, sends, what);
        Peers.requireLinked(linked, rank, recvs, what);
        long total = 0;
        for (int i = 0; i < sends.size(); i++) {
            total += sends.get(i).bytes();
        }
        for (int i = 0; i < recvs.size(); i++) {
            total += recvs.get(i).bytes();
        }
        busySince = System.nanoTime();
        try {
            // The two ends of a transfer may choose differently between the two paths (a gather's root receives
            // from every rank, each sender sends one block): the wire layout depends on the transfer alone.
            if (total <= pollLimit) {
                waitingOn = recvs.isEmpty() ? sends.isEmpty() ? -1 : sends.get(0).peer() : recvs.get(0).peer();
                poller.run(sends, recvs, this);
            } else {
                poller.toBlocking();
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
     * A transfer's slices, slice i for connection i, kept in the transfer: a function of the region's length
     * only, so that sender and receiver agree on which bytes travel on which connection whatever else each of
     * them is doing.
     */
    void slices(Xfer x) {
        if (x.slices != null) {
            return;
        }
        ByteBuffer region = x.region();
        int start = region.position();
        int bytes = region.remaining();
        int ways = bytes < SPLIT_THRESHOLD ? 1 : perPeer;
        int base = bytes / ways;
        // element-aligned for every type (8 is a multiple of every element size)
        base -= base % 8;
        ByteBuffer[] out = new ByteBuffer[ways];
        int[] from = new int[ways];
        int[] to = new int[ways];
        int at = start;
        for (int i = 0; i < ways; i++) {
            from[i] = at;
            to[i] = i == ways - 1 ? start + bytes : at + base;
            out[i] = region.duplicate().order(ByteOrder.nativeOrder());
            at = to[i];
        }
        x.sliceStart = from;
        x.sliceEnd = to;
        x.slices = out;
    }

    private void submitSplit(Xfer x, boolean send, List<Future<?>> futures, List<Integer> peers) {
        slices(x);
        for (int i = 0; i < x.slices.length; i++) {
            ByteBuffer slice = x.slice(i);
            int index = i;
            long skip = x.sliceStart[i] - x.start();
            Callable<Void> task = () -> {
                run(x, send, skip, index, slice);
                return null;
            };
            futures.add(pool.submit(task));
            peers.add(x.peer());
        }
    }

    /** One slice of a transfer on connection {@code index}; {@code skip}: the slice's offset in the region. */
    private void run(Xfer x, boolean send, long skip, int index, ByteBuffer slice) throws IOException {
        SocketChannel ch = channels[x.peer()][index];
        if (send) {
            writeFully(ch, slice);
        } else if (x.reducer() == null) {
            readFully(ch, slice);
        } else if (x.intoRegion()) {
            readReduceInPlace(ch, slice, x.reduceA(), x.reduceAOffset() + skip, x.reducer(), pieceBytes, staging(x.peer(), index));
        } else {
            readReduce(ch, slice, x.reduceA(), x.reduceAOffset() + skip, x.reducer(), piece(x.peer(), index),
                    staging(x.peer(), index));
        }
    }

    /** The buffer reducing receives from {@code peer} on connection {@code index} read into. */
    synchronized ByteBuffer piece(int peer, int index) {
        int k = peer * perPeer + index;
        if (pieces[k] == null) {
            pieces[k] = ByteBuffer.allocateDirect(pieceBytes).order(ByteOrder.nativeOrder());
        }
        return pieces[k];
    }

    /** The heap blocks of the reducing reader on connection {@code index} to {@code peer}. */
    private synchronized Reducer.Staging staging(int peer, int index) {
        int k = peer * perPeer + index;
        if (staging[k] == null) {
            staging[k] = new Reducer.Staging();
        }
        return staging[k];
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
                                   ByteBuffer piece, Reducer.Staging staging) throws IOException {
        int pos = dst.position();
        int end = dst.limit();
        while (pos < end) {
            int n = Math.min(piece.capacity(), end - pos);
            piece.clear().limit(n);
            readFully(ch, piece);
            reducer.reduce(dst, pos, a, aOffset + (pos - dst.position()), piece, 0, n, staging);
            pos += n;
        }
    }

    /**
     * A reducing receive whose other operand shares no bytes with dst: each piece lands in dst itself and is reduced
     * there while still in the cache. Through a separate piece buffer, dst's lines were read from memory only to be
     * overwritten (docs/benchmarks.md#mesh).
     */
    private static void readReduceInPlace(SocketChannel ch, ByteBuffer dst, ByteBuffer a, long aOffset, Reducer reducer,
                                          int pieceBytes, Reducer.Staging staging) throws IOException {
        int start = dst.position();
        int end = dst.limit();
        for (int pos = start; pos < end; ) {
            int n = Math.min(pieceBytes, end - pos);
            dst.limit(pos + n).position(pos);
            readFully(ch, dst);
            reducer.reduce(dst, pos, a, aOffset + (pos - start), dst, pos, n, staging);
            pos += n;
        }
    }

    /** Closes every connection: peers blocked on us fail at once instead of waiting for their timeout. */
    void abort() {
        aborted = true;
        closeAll(channels);
        poller.wakeup();
        pool.shutdownNow();
    }

    @Override
    public void close() {
        aborted = true;
        closeAll(channels);
        MeshLinks.close(listener);
        poller.close();
        pool.shutdownNow();
    }

    private static void closeAll(SocketChannel[][] ch) {
        MeshLinks.closeAll(ch);
    }
}
