package dev.ncclbench.rendezvous;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The small TCP store rank 0 serves. It only gathers: every rank sends a payload under a tag, and once all
 * have arrived each rank gets what the gather's mode gives it (every payload, only the root's, those of the
 * peers it named, or none: see {@link Wire#ALL}). A client must prove it holds the job's token, by answering the
 * nonce the store sends each connection ({@link JobProof}); a rank whose connection
 * drops without saying goodbye is lost, and every gather after that fails naming it.
 *
 * <p>One thread serves every connection with non-blocking sockets (a selector); another accepts them
 * ({@link StoreAcceptor}). A connection speaks for one process's local ranks: a job of 1024 nodes x 8 ranks holds
 * 1024 connections, and each gather's answers to a connection leave in one write. The answers of one gather are
 * encoded once and shared by every connection that gets the same bytes.
 *
 * <p>A store serves one job ({@link #StoreServer(InetSocketAddress, byte[], int, long)}: a sweep's rendezvous) or many
 * at once ({@link #open}: fleet's groups of a round), each a {@link StoreJob} with its own token, ranks, timeout, state
 * and verdict; the job id of a hello (a digest of the token) picks the job. Many jobs cost no more threads or ports
 * than one.
 */
public final class StoreServer implements AutoCloseable {
    /** How often the clock looks at the timeouts (gathers, fault reports, strangers). */
    static final long TICK_MILLIS = 100;
    /** A stranger that connects and says nothing is closed after this (fleet's join too). */
    public static final long HELLO_MILLIS = 30_000;
    /**
     * Connections still to say hello beyond the ranks of the jobs served (each of whose processes connects once): past
     * this the oldest stranger is dropped. A stranger's buffer grows to at most one hello (about 32 KiB), so a flood of
     * half-said hellos costs at most this many, not the file descriptor limit's; a real rank says its hello one round
     * trip after it connects, and one dropped all the same connects again.
     */
    static final int SPARE_STRANGERS = 1024;
    /**
     * The fixed hello: magic, version, the job's id, first rank, count, nranks, the answer to the challenge, the flags'
     * length (then flags and host).
     */
    private static final int HELLO_BYTES = 24 + JobProof.ID_BYTES + JobProof.ANSWER_BYTES;
    /** The longest request: a gather with the largest tag and payload. */
    private static final int MAX_REQUEST = Wire.MAX_PAYLOAD + 4 * Wire.MAX_TAG + 64;

    private final ServerSocketChannel server;
    private final Selector selector;
    /** The jobs served, by {@link StoreJob#key}: added and closed by other threads, read by the store's. */
    private final Map<ByteBuffer, StoreJob> jobs = new ConcurrentHashMap<>();
    /** The one job of a one-job store, else null. */
    private final StoreJob only;
    /** What connections count before their hello names a job (a one-job store: the job's own count). */
    private final StoreTraffic strangers;
    /** Work for the store's thread from others: closing jobs. */
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /** A set: 8192 ranks saying goodbye must not each walk a list. */
    private final java.util.Set<StoreConnection> conns = new java.util.LinkedHashSet<>();
    /** Connections still to say hello, oldest first: what the clock looks at, not every rank of every job. */
    private final java.util.Set<StoreConnection> waitingHello = new java.util.LinkedHashSet<>();
    /** The ranks of the jobs served: how many strangers may wait for their hello ({@link #SPARE_STRANGERS}). */
    private final java.util.concurrent.atomic.AtomicLong ranksServed = new java.util.concurrent.atomic.AtomicLong();
    /** What waits to be written, and writing it. */
    private final StoreWriter writer;
    private final Thread loop;
    private final StoreAcceptor acceptor;
    private volatile boolean closed;

    /**
     * @param bind          where to listen (port 0: any free port)
     * @param timeoutMillis how long a gather waits for the last rank once the first has arrived
     */
    public StoreServer(InetSocketAddress bind, byte[] token, int nranks, long timeoutMillis) throws IOException {
        this(bind, new StoreTraffic(nranks), token, nranks, timeoutMillis);
    }

    /** A store with no job yet: {@link #open} adds them. */
    public StoreServer(InetSocketAddress bind) throws IOException {
        this(bind, new StoreTraffic(0), null, 0, 0);
    }

    /** @param token the one job's, or null for none yet */
    private StoreServer(InetSocketAddress bind, StoreTraffic strangers, byte[] token, int nranks, long timeoutMillis)
            throws IOException {
        this.strangers = strangers;
        this.writer = new StoreWriter(strangers, this::drop);
        // the one job before the port opens: a rank that connects at once must find it, not a wrong token
        this.only = token == null ? null : open(token, nranks, timeoutMillis, strangers);
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

    /** A one-job store's own count of what went through it. */
    public StoreTraffic traffic() {
        return only.traffic;
    }

    /**
     * A job served from now on, until {@link #close(Collection)}; its ranks connect to {@link #port()} with
     * {@code token} (a new one: the token picks the job).
     *
     * @param timeoutMillis how long a gather of the job waits for its last rank once the first has arrived
     */
    public StoreJob open(byte[] token, int nranks, long timeoutMillis) {
        return open(token, nranks, timeoutMillis, new StoreTraffic(nranks));
    }

    private StoreJob open(byte[] token, int nranks, long timeoutMillis, StoreTraffic traffic) {
        StoreJob job = new StoreJob(this, writer, token, nranks, timeoutMillis, traffic);
        if (jobs.putIfAbsent(job.key, job) != null) {
            throw new IllegalArgumentException("the store already serves a job with this token");
        }
        ranksServed.addAndGet(nranks);
        return job;
    }

    /**
     * Ends {@code ended} (a round's groups) while the store goes on serving the others: a decided job's ranks first hear
     * its verdict (as {@link #close()} waits), then its connections are dropped on the store's thread, none of them lost.
     * A hello naming an ended job is refused as a wrong token.
     */
    public void close(Collection<StoreJob> ended) {
        StoreJob.awaitTold(ended);
        List<StoreJob> mine = List.copyOf(ended);
        for (StoreJob j : mine) {
            j.closed = true;
            if (jobs.remove(j.key, j)) {
                ranksServed.addAndGet(-j.nranks);
            }
        }
        tasks.add(() -> {
            for (StoreJob j : mine) {
                for (StoreConnection c : new ArrayList<>(j.conns)) {
                    drop(c);
                }
                j.state.close();
            }
        });
        selector.wakeup();
    }

    private void serve() {
        long lastTick = System.nanoTime();
        try {
            while (!closed) {
                selector.select(TICK_MILLIS);
                register();
                for (Runnable t; (t = tasks.poll()) != null; ) {
                    t.run();
                }
                for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (!k.isValid()) {
                        continue;
                    }
                    StoreConnection c = (StoreConnection) k.attachment();
                    if (k.isWritable()) {
                        writer.flush(c);
                    }
                    if (k.isValid() && k.isReadable()) {
                        read(c);
                    }
                }
                if (System.nanoTime() - lastTick >= TICK_MILLIS * 1_000_000) {
                    lastTick = System.nanoTime();
                    for (StoreJob j : jobs.values()) {
                        j.tick();
                    }
                    dropStrangers();
                }
            }
        } catch (IOException | RuntimeException e) {
            // the selector itself failed: nothing can be served any more; the clients see their connections close
        } finally {
            for (Runnable t; (t = tasks.poll()) != null; ) {
                t.run();
            }
            for (StoreConnection c : new ArrayList<>(conns)) {
                drop(c);
            }
            acceptor.close();
            StoreAcceptor.closeQuietly(selector);
            jobs.values().forEach(j -> j.state.close());
        }
    }

    /** The connections the acceptor took since the last look. */
    private void register() throws IOException {
        SocketChannel ch;
        while ((ch = acceptor.poll()) != null) {
            StoreConnection c = new StoreConnection(ch, ch.register(selector, SelectionKey.OP_READ));
            c.key.attach(c);
            conns.add(c);
            waitingHello.add(c);
            // the challenge: a nonce for this connection alone, which its hello must answer (JobProof)
            c.nonce = JobProof.nonce();
            writer.send(c, Wire.challenge(c.nonce));
        }
        long room = SPARE_STRANGERS + ranksServed.get();
        while (waitingHello.size() > room) {
            drop(waitingHello.iterator().next()); // the oldest: a real rank's hello follows its connect at once
        }
    }

    private void dropStrangers() {
        long now = System.nanoTime();
        for (StoreConnection c : new ArrayList<>(waitingHello)) {
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
            writer.traffic(c).read(n, 0);
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
        // the job its hello named: a store serves one job or many
        if (c.job.request(c, rank, b)) {
            drop(c); // every rank of it said goodbye
        }
    }

    /** What a hello naming no job of this store hears. */
    static final String WRONG_JOB = JobProof.wrongJob("this store");

    private void hello(StoreConnection c, ByteBuffer b) throws IOException {
        if (b.remaining() >= 4 && b.getInt(b.position()) != Wire.MAGIC) {
            drop(c); // not ours: say nothing
            return;
        }
        if (b.remaining() < 8) {
            throw new BufferUnderflowException();
        }
        int version = b.getInt(b.position() + 4);
        if (version != JobProof.VERSION) {
            // another version's hello has another length: refuse on the version alone
            b.position(b.limit());
            strangers.read(0, 1);
            writer.refuse(c, "protocol version " + version + " (this store speaks " + JobProof.VERSION + ")");
            return;
        }
        if (b.remaining() < HELLO_BYTES) {
            throw new BufferUnderflowException();
        }
        b.getInt();
        b.getInt();
        byte[] id = new byte[JobProof.ID_BYTES];
        b.get(id);
        int r = b.getInt();
        int count = b.getInt();
        int n = b.getInt();
        byte[] answer = new byte[JobProof.ANSWER_BYTES];
        b.get(answer);
        byte[] flagBytes = Wire.getBytes(b, Wire.MAX_FLAGS);
        byte[] hostBytes = Wire.getBytes(b, Wire.MAX_TAG);
        StoreJob job = jobs.get(ByteBuffer.wrap(id));
        if (job == null || job.closed) {
            // no job of this store has that id (an ended one neither): another job's process, or another secret's
            strangers.read(0, 1);
            writer.refuse(c, WRONG_JOB);
            return;
        }
        if (!job.proves(c.nonce, id, r, count, n, answer, flagBytes, hostBytes)) {
            // the job's id is public: only the answer shows the secret, and a replayed hello answers another nonce
            strangers.read(0, 1);
            writer.refuse(c, StoreLink.ranks(r, count) + " did not prove the job's secret (another NCCLBENCH_TOKEN than"
                    + " rank 0, or a hello replayed from another connection): refused; the job waits for its own");
            return;
        }
        job.traffic.read(0, 1);
        String flags = new String(flagBytes, java.nio.charset.StandardCharsets.UTF_8);
        String host = new String(hostBytes, java.nio.charset.StandardCharsets.UTF_8);
        String refusal = job.admit(c, r, count, n);
        if (refusal != null) {
            writer.refuse(c, refusal);
            return;
        }
        waitingHello.remove(c);
        job.hosts(r, count, host);
        writer.send(c, Wire.ok());
        // the process's flags, once for all its ranks: OK, or the verdict of a job whose processes differ
        StoreState.Verdict v = flags.isEmpty() ? null : job.state.flags(r, flags);
        writer.send(c, v == null ? Wire.ok() : Wire.failure(v.code(), v.message()));
    }

    /** Closes {@code c}; a rank that leaves without a goodbye is lost. */
    private void drop(StoreConnection c) {
        if (c.gone) {
            return;
        }
        c.gone = true;
        if (!c.out.isEmpty()) {
            c.out.clear();
            writer.traffic(c).flushed();
        }
        conns.remove(c);
        waitingHello.remove(c);
        c.key.cancel();
        try {
            c.ch.close();
        } catch (IOException e) {
            // closing
        }
        if (c.job != null) {
            c.job.detach(c, closed);
        }
    }

    @Override
    public void close() {
        // every rank hears the verdict (one still starting too), rather than "the store went away"
        StoreJob.awaitTold(List.copyOf(jobs.values()));
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
