package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Iterator;

/**
 * The small TCP store rank 0 serves. It only gathers: every rank sends a payload under a tag, and once all
 * have arrived each rank gets what the gather's mode gives it (every payload, only the root's, those of the
 * peers it named, or none: see {@link Wire#ALL}). A client must present the job's token; a rank whose connection
 * drops without saying goodbye is lost, and every gather after that fails naming it.
 *
 * <p>One thread serves every connection with non-blocking sockets (a selector); another accepts them
 * ({@link StoreAcceptor}). A connection speaks for one process's local ranks: a job of 1024 nodes x 8 ranks holds
 * 1024 connections, and each gather's answers to a connection leave in one write. The answers of one gather are
 * encoded once and shared by every connection that gets the same bytes.
 */
public final class StoreServer implements AutoCloseable {
    /** How often the clock looks at the timeouts (gathers, fault reports, strangers). */
    static final long TICK_MILLIS = 100;
    /** A stranger that connects and says nothing is closed after this. */
    static final long HELLO_MILLIS = 30_000;
    /** The fixed hello: magic, version, token, first rank, count, nranks, the flags' length (then flags and host). */
    private static final int HELLO_BYTES = 24 + Wire.TOKEN_BYTES;
    /** The longest request: a gather with the largest tag and payload. */
    private static final int MAX_REQUEST = Wire.MAX_PAYLOAD + 4 * Wire.MAX_TAG + 64;

    private final ServerSocketChannel server;
    private final Selector selector;
    private final byte[] token;
    private final int nranks;
    private final StoreState state;
    private final long timeoutMillis;
    private final StoreConnection[] byRank;
    /** A set: 8192 ranks saying goodbye must not each walk a list. */
    private final java.util.Set<StoreConnection> conns = new java.util.LinkedHashSet<>();
    /** Connections with answers held back while a gather's answers are handed out ({@link Answers#complete}). */
    private final java.util.List<StoreConnection> held = new ArrayList<>();
    private boolean holding;
    private final Thread loop;
    private final StoreTraffic traffic;
    private final StoreAcceptor acceptor;
    private volatile boolean closed;

    /**
     * @param bind          where to listen (port 0: any free port)
     * @param timeoutMillis how long a gather waits for the last rank once the first has arrived
     */
    public StoreServer(InetSocketAddress bind, byte[] token, int nranks, long timeoutMillis) throws IOException {
        this.token = token.clone();
        this.nranks = nranks;
        this.timeoutMillis = timeoutMillis;
        this.byRank = new StoreConnection[nranks];
        this.traffic = new StoreTraffic(nranks);
        this.state = new StoreState(nranks, timeoutMillis, new Answers());
        this.server = ServerSocketChannel.open();
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            // every rank of a big job connects at once: as long a queue as the kernel gives (StoreAcceptor)
            server.bind(bind, Integer.MAX_VALUE);
            selector = Selector.open();
        } catch (IOException e) {
            server.close();
            throw e;
        }
        loop = new Thread(this::serve, "ncclbench-store");
        loop.setDaemon(true);
        acceptor = new StoreAcceptor(server, selector);
        loop.start();
    }

    public int port() {
        return server.socket().getLocalPort();
    }

    /** The store's own count of what went through it. */
    public StoreTraffic traffic() {
        return traffic;
    }

    private void serve() {
        long lastTick = System.nanoTime();
        try {
            while (!closed) {
                selector.select(TICK_MILLIS);
                register();
                for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (!k.isValid()) {
                        continue;
                    }
                    StoreConnection c = (StoreConnection) k.attachment();
                    if (k.isWritable()) {
                        flush(c);
                    }
                    if (k.isValid() && k.isReadable()) {
                        read(c);
                    }
                }
                if (System.nanoTime() - lastTick >= TICK_MILLIS * 1_000_000) {
                    lastTick = System.nanoTime();
                    state.tick();
                    dropStrangers();
                }
            }
        } catch (IOException | RuntimeException e) {
            // the selector itself failed: nothing can be served any more; the clients see their connections close
        } finally {
            for (StoreConnection c : new ArrayList<>(conns)) {
                drop(c);
            }
            acceptor.close();
            StoreAcceptor.closeQuietly(selector);
            state.close();
        }
    }

    /** The connections the acceptor took since the last look. */
    private void register() throws IOException {
        SocketChannel ch;
        while ((ch = acceptor.poll()) != null) {
            StoreConnection c = new StoreConnection(ch, ch.register(selector, SelectionKey.OP_READ));
            c.key.attach(c);
            conns.add(c);
        }
    }

    private void dropStrangers() {
        long now = System.nanoTime();
        for (StoreConnection c : new ArrayList<>(conns)) {
            if (c.first < 0 && !c.closeWhenFlushed && (now - c.opened) / 1_000_000 > HELLO_MILLIS) {
                drop(c);
            }
        }
    }

    private void read(StoreConnection c) {
        try {
            if (!c.in.hasRemaining()) {
                if (c.in.capacity() >= MAX_REQUEST) {
                    throw new IOException("request over " + MAX_REQUEST + " bytes");
                }
                c.in = ByteBuffer.allocate(Math.min(MAX_REQUEST, c.in.capacity() * 2)).put(c.in.flip());
            }
            int n = c.ch.read(c.in);
            if (n < 0) {
                drop(c);
                return;
            }
            traffic.read(n, 0);
            c.in.flip();
            while (!c.gone && !c.closeWhenFlushed && c.in.hasRemaining()) {
                int start = c.in.position();
                try {
                    handle(c, c.in); // counts the request once it is whole, before any answer it causes
                } catch (BufferUnderflowException e) {
                    c.in.position(start);
                    break;
                }
            }
            c.in.compact();
        } catch (IOException e) {
            drop(c);
        }
    }

    /** One request from {@code b}, or a BufferUnderflowException (the rest has not arrived yet). */
    private void handle(StoreConnection c, ByteBuffer b) throws IOException {
        if (c.first < 0) {
            hello(c, b);
            return;
        }
        int rank = b.getInt();
        if (!c.speaksFor(rank)) {
            throw new IOException("a request for rank " + rank + " on the connection of ranks " + c.first + "-"
                    + (c.first + c.count - 1));
        }
        int op = b.getInt();
        switch (op) {
            case Wire.OP_BYE -> {
                traffic.read(0, 1);
                if (!c.bye[rank - c.first]) {
                    c.bye[rank - c.first] = true;
                    c.byes++;
                    state.departed(rank);
                }
                if (c.byes == c.count) {
                    drop(c);
                }
            }
            case Wire.OP_FAULT -> {
                boolean self = b.getInt() != 0;
                ExitCode code = ExitCode.of(b.getInt());
                String step = Wire.getString(b, Wire.MAX_TAG);
                String message = Wire.getString(b, Wire.MAX_TAG * 16);
                traffic.read(0, 1);
                state.fault(rank, self, code, step, message);
            }
            case Wire.OP_GATHER -> {
                int mode = b.getInt();
                int root = b.getInt();
                String tag = Wire.getString(b, Wire.MAX_TAG);
                byte[] payload = Wire.getBytes(b, Wire.MAX_PAYLOAD);
                if (mode < Wire.ALL || mode > Wire.PEERS || root < 0 || root >= nranks) {
                    throw new IOException("a gather of mode " + mode + " root " + root);
                }
                int[] peers = mode == Wire.PEERS ? peers(b) : null;
                traffic.read(0, 1);
                state.gather(rank, tag, mode, root, payload, peers);
            }
            case Wire.OP_GATHERS -> gathers(c, b);
            default -> throw new IOException("unknown request " + op);
        }
    }

    /** Several of the connection's ranks at one gather: read whole first, then each arrives as if alone. */
    private void gathers(StoreConnection c, ByteBuffer b) throws IOException {
        int mode = b.getInt();
        int root = b.getInt();
        String tag = Wire.getString(b, Wire.MAX_TAG);
        int k = b.getInt();
        if (mode < Wire.ALL || mode > Wire.PEERS || root < 0 || root >= nranks || k < 1 || k > c.count) {
            throw new IOException("a gather of mode " + mode + " root " + root + " for " + k + " ranks");
        }
        int[] ranks = new int[k];
        byte[][] payloads = new byte[k][];
        int[][] peers = new int[k][];
        for (int i = 0; i < k; i++) {
            ranks[i] = b.getInt();
            if (!c.speaksFor(ranks[i])) {
                throw new IOException("a gather for rank " + ranks[i] + " on the connection of ranks " + c.first + "-"
                        + (c.first + c.count - 1));
            }
            payloads[i] = Wire.getBytes(b, Wire.MAX_PAYLOAD);
            peers[i] = mode == Wire.PEERS ? peers(b) : null;
        }
        traffic.read(0, 1);
        for (int i = 0; i < k; i++) {
            state.gather(ranks[i], tag, mode, root, payloads[i], peers[i]);
        }
    }

    /** The ranks a {@link Wire#PEERS} request names: each a rank of the job, at most every rank. */
    private int[] peers(ByteBuffer b) throws IOException {
        int count = b.getInt();
        if (count < 0 || count > nranks) {
            throw new IOException("a request for " + count + " peers in a job of " + nranks);
        }
        int[] peers = new int[count];
        for (int i = 0; i < count; i++) {
            peers[i] = b.getInt();
            if (peers[i] < 0 || peers[i] >= nranks) {
                throw new IOException("a request for rank " + peers[i] + " in a job of " + nranks);
            }
        }
        return peers;
    }

    private void hello(StoreConnection c, ByteBuffer b) throws IOException {
        if (b.remaining() >= 4 && b.getInt(b.position()) != Wire.MAGIC) {
            drop(c); // not ours: say nothing
            return;
        }
        if (b.remaining() < 8) {
            throw new BufferUnderflowException();
        }
        int version = b.getInt(b.position() + 4);
        if (version != Wire.VERSION) {
            // another version's hello has another length: refuse on the version alone
            b.position(b.limit());
            traffic.read(0, 1);
            refuse(c, "protocol version " + version + " (this store speaks " + Wire.VERSION + ")");
            return;
        }
        if (b.remaining() < HELLO_BYTES) {
            throw new BufferUnderflowException();
        }
        b.getInt();
        b.getInt();
        byte[] presented = new byte[Wire.TOKEN_BYTES];
        b.get(presented);
        int r = b.getInt();
        int count = b.getInt();
        int n = b.getInt();
        String flags = Wire.getString(b, Wire.MAX_FLAGS);
        String host = Wire.getString(b, Wire.MAX_TAG);
        traffic.read(0, 1);
        String refusal = null;
        if (!MessageDigest.isEqual(presented, token)) {
            refusal = "wrong job token: this store belongs to another job";
        } else if (n != nranks || r < 0 || count < 1 || r > nranks - count) {
            refusal = count == 1 ? "rank " + r + " of " + n + " does not fit a job of " + nranks + " ranks"
                    : "ranks " + r + "-" + ((long) r + count - 1) + " of " + n + " do not fit a job of " + nranks + " ranks";
        } else {
            for (int i = r; i < r + count && refusal == null; i++) {
                if (byRank[i] != null) {
                    refusal = "rank " + i + " is already connected";
                }
            }
        }
        if (refusal != null) {
            refuse(c, refusal);
            return;
        }
        c.first = r;
        c.count = count;
        c.bye = new boolean[count];
        for (int i = r; i < r + count; i++) {
            byRank[i] = c;
        }
        state.hosts(r, count, host);
        send(c, Wire.ok());
        // the process's flags, once for all its ranks: OK, or the verdict of a job whose processes differ
        StoreState.Verdict v = flags.isEmpty() ? null : state.flags(r, flags);
        send(c, v == null ? Wire.ok() : Wire.failure(v.code(), v.message()));
    }

    private void refuse(StoreConnection c, String why) {
        send(c, Wire.failure(ExitCode.USAGE, why));
        c.closeWhenFlushed = true;
        if (c.out.isEmpty()) {
            drop(c);
        }
    }

    /** Queues {@code body} (shared: only a duplicate is consumed) and writes what the socket takes now: the hello's answers. */
    private void send(StoreConnection c, ByteBuffer body) {
        if (c.gone) {
            return;
        }
        boolean wasEmpty = c.out.isEmpty();
        c.out.add(body.duplicate());
        traffic.queued(wasEmpty);
        traffic.wroteTo(c.first, body.remaining());
        if (wasEmpty) {
            flush(c);
        }
    }

    /**
     * An answer to {@code rank} ({@link Wire#EVERY_RANK}: to each rank of the connection), after its frame; written now, or with the connection's other answers of the same gather
     * once they are all handed out (one write for a process's ranks, not one each).
     */
    private void answer(StoreConnection c, int rank, ByteBuffer body) {
        if (c.gone) {
            return;
        }
        boolean wasEmpty = c.out.isEmpty();
        c.out.add(Wire.frame(rank, body.remaining()));
        c.out.add(body.duplicate());
        traffic.queued(wasEmpty);
        if (rank == Wire.EVERY_RANK) {
            for (int r = c.first; r < c.first + c.count; r++) {
                traffic.wroteTo(r, 8 + body.remaining()); // what each rank receives
            }
        } else {
            traffic.wroteTo(rank, 8 + body.remaining());
        }
        if (holding) {
            if (!c.held) {
                c.held = true;
                held.add(c);
            }
        } else if (wasEmpty) {
            flush(c);
        }
    }

    /** Writes what the socket takes, in one call however many answers wait (a gathering write). */
    private void flush(StoreConnection c) {
        try {
            while (!c.out.isEmpty()) {
                ByteBuffer[] queued = c.out.toArray(new ByteBuffer[0]);
                traffic.wrote(c.ch.write(queued));
                while (!c.out.isEmpty() && !c.out.peek().hasRemaining()) {
                    c.out.poll();
                }
                if (!c.out.isEmpty()) {
                    c.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    return;
                }
            }
            c.key.interestOps(SelectionKey.OP_READ);
            traffic.flushed();
            if (c.closeWhenFlushed) {
                drop(c);
            }
        } catch (IOException | java.nio.channels.CancelledKeyException e) {
            drop(c);
        }
    }

    /** Closes {@code c}; a rank that leaves without a goodbye is lost. */
    private void drop(StoreConnection c) {
        if (c.gone) {
            return;
        }
        c.gone = true;
        if (!c.out.isEmpty()) {
            c.out.clear();
            traffic.flushed();
        }
        conns.remove(c);
        c.key.cancel();
        try {
            c.ch.close();
        } catch (IOException e) {
            // closing
        }
        for (int i = 0; c.first >= 0 && i < c.count; i++) {
            byRank[c.first + i] = null;
            if (!c.bye[i] && !closed) {
                state.lost(c.first + i, "its connection to the rendezvous closed (process killed or crashed?)");
            }
        }
    }

    /** The state's answers, encoded once per distinct content. */
    private final class Answers implements StoreState.Outbox {
        @Override
        public void complete(int[] ranks, int mode, int root, byte[][] payloads, int[][] wanted) {
            holding = true;
            try {
                handOut(ranks, mode, root, payloads, wanted);
            } finally {
                holding = false;
                for (StoreConnection c : held) {
                    c.held = false;
                    flush(c);
                }
                held.clear();
            }
        }

        private void handOut(int[] ranks, int mode, int root, byte[][] payloads, int[][] wanted) {
            ByteBuffer all = null;
            ByteBuffer rootOnly = null;
            // every rank of the job answered: a connection whose ranks all get the same bytes gets them once
            boolean whole = ranks.length == nranks && mode != Wire.PEERS;
            for (int i = 0; i < ranks.length; i++) {
                int r = ranks[i];
                StoreConnection c = byRank[r];
                if (c == null) {
                    continue;
                }
                boolean getsAll = mode == Wire.ALL || (mode == Wire.TO_ROOT && r == root);
                boolean once = whole && c.count > 1 && r == c.first && (mode != Wire.TO_ROOT || !c.speaksFor(root));
                if (once) {
                    ByteBuffer same = getsAll ? (all = all != null ? all : Wire.answer(payloads, nranks))
                            : mode == Wire.FROM_ROOT ? (rootOnly = rootOnly != null ? rootOnly : Wire.answer(new byte[][] {
                                    payloads == null ? new byte[0] : payloads[root]}, 1))
                            : Wire.release();
                    answer(c, Wire.EVERY_RANK, same);
                    i += c.count - 1; // ranks are in order: the connection's others are answered
                    continue;
                }
                if (mode == Wire.PEERS) {
                    answer(c, r, Wire.picked(payloads, wanted[r])); // each its own: O(its peers) bytes
                } else if (getsAll) {
                    all = all != null ? all : Wire.answer(payloads, nranks);
                    answer(c, r, all);
                } else if (mode == Wire.FROM_ROOT) {
                    rootOnly = rootOnly != null ? rootOnly
                            : Wire.answer(new byte[][] {payloads == null ? new byte[0] : payloads[root]}, 1);
                    answer(c, r, rootOnly);
                } else {
                    answer(c, r, Wire.release());
                }
            }
        }

        @Override
        public void verdict(int rank, StoreState.Verdict v) {
            StoreConnection c = byRank[rank];
            if (c != null) {
                answer(c, rank, Wire.failure(v.code(), v.message()));
            }
        }
    }

    @Override
    public void close() {
        // every rank hears the verdict (one still starting too), rather than "the store went away"
        if (state.decided()) {
            state.awaitEveryoneTold(Math.min(timeoutMillis, 60_000));
            traffic.awaitFlushed(1_000);
        }
        closed = true;
        acceptor.close();
        selector.wakeup();
        try {
            loop.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
