package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One process's connection to the store, shared by its local ranks: a node of 8 ranks holds one connection, and the
 * answers of a gather reach its ranks in one read. Every request starts with its rank; every answer comes framed with
 * its rank and length. No thread of its own: a rank waiting for its answer reads the socket while no other rank does,
 * and hands on the answers that are not its own (leader and followers), so one rank alone reads as it always did.
 */
final class StoreLink {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final int first;
    private final int count;
    final String where;
    private final long waitMillis;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a rank's answer has been handed on, or when it is its turn to read; by rank - first. */
    private final Condition[] answered;
    /** Answers read for a local rank that was not reading, by rank - first. */
    private final ArrayDeque<byte[]>[] waiting;
    /** The local ranks waiting in {@link #receive}, by rank - first. */
    private final boolean[] asking;
    /** The local ranks' gathers, sent together; null for a connection of one rank. */
    private final LocalArrivals arrivals;
    private boolean reading;
    private IOException broken;
    private int open;

    /**
     * Connects, retrying until rank 0's store is up or {@code timeoutMillis} has passed, and says hello for ranks
     * {@code first} to {@code first + count - 1}.
     *
     * @param flags the flags that change what this process measures, one "flag value" a line (null: none to compare):
     *              a process whose flags differ from the job's is refused, and the job ends (exit 2)
     * @param node  this node's name, as the scheduler and NCCL know it: a hang names its hosts as well as its ranks
     */
    static StoreLink connect(InetSocketAddress store, byte[] token, int first, int count, int nranks, long timeoutMillis,
                             String flags, String node) {
        String who = ranks(first, count);
        String what = "the rendezvous store at " + store.getHostString() + ":" + store.getPort();
        return HostLookup.reach(store, timeoutMillis, who, what,
                s -> new StoreLink(s, token, first, count, nranks, timeoutMillis, store.toString(), flags, node),
                within -> who + " could not reach " + what + within
                        + "; is rank 0 running, and are MASTER_ADDR/MASTER_PORT or --rendezvous the same on every rank?");
    }

    /**
     * Reads the store's challenge, says hello (the job's id, the answer to the challenge, the flags, the host) in one
     * write, then reads both answers: one round trip after the challenge.
     */
    @SuppressWarnings("unchecked")
    private StoreLink(Socket s, byte[] token, int first, int count, int nranks, long timeoutMillis, String where, String flags,
                      String node) throws IOException {
        this.socket = s;
        this.first = first;
        this.count = count;
        this.where = where;
        this.open = count;
        this.waiting = new ArrayDeque[count];
        this.answered = new Condition[count];
        this.asking = new boolean[count];
        for (int i = 0; i < count; i++) {
            waiting[i] = new ArrayDeque<>(1);
            answered[i] = lock.newCondition();
        }
        this.arrivals = count > 1 ? new LocalArrivals(count, this::send) : null;
        // a gather waits at most the store's timeout; the extra minute covers a store that died silently
        this.waitMillis = Math.min(Integer.MAX_VALUE, timeoutMillis + 60_000);
        s.setTcpNoDelay(true);
        s.setSoTimeout((int) waitMillis);
        in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
        out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
        // the store speaks first: a nonce for this connection, which the hello answers without sending the token
        byte[] nonce = Wire.readChallenge(in);
        // where these ranks run, so that a hang names its hosts as well as its ranks
        Wire.writeHello(out, token, nonce, first, count, nranks, flags == null ? "" : flags, clip(node));
        out.flush();
        if (in.readInt() != Wire.OK) {
            in.readInt();
            String why = Wire.readString(in, 4096);
            throw NcclbenchException.usage("the rendezvous store at " + where + " refused " + ranks(first, count) + ": " + why);
        }
        // the flags' answer: OK, or the verdict of a job whose processes differ
        if (in.readInt() != Wire.OK) {
            ExitCode code = ExitCode.of(in.readInt());
            NcclbenchException e = new NcclbenchException(code, Wire.readString(in, 1 << 16));
            closeQuietly(socket);
            throw e;
        }
    }

    /** A host name as the store takes it (at most {@link Wire#MAX_TAG} bytes; Linux's are at most 64). */
    private static String clip(String host) {
        return host.length() <= Wire.MAX_TAG / 4 ? host : host.substring(0, Wire.MAX_TAG / 4);
    }

    static String ranks(int first, int count) {
        return count == 1 ? "rank " + first : "ranks " + first + "-" + (first + count - 1);
    }

    /** Writes one request of {@code rank}: its rank, then what {@code body} has written. */
    void send(int rank, byte[] request) throws IOException {
        synchronized (out) {
            out.writeInt(rank);
            out.write(request);
            out.flush();
        }
    }

    /**
     * {@code rank}'s part of a gather: sent alone on a connection of one rank, else with the other local ranks that
     * arrive at the same gather ({@link LocalArrivals}). The answer comes by {@link #receive}.
     */
    void gather(int rank, int mode, int root, String tag, byte[] payload, int[] peers) throws IOException {
        if (arrivals != null) {
            arrivals.arrive(tag, mode, root, new LocalArrivals.Arrival(rank, payload, peers));
            return;
        }
        send(rank, request(out -> {
            out.writeInt(Wire.OP_GATHER);
            out.writeInt(mode);
            out.writeInt(root);
            Wire.writeString(out, tag);
            Wire.writeBytes(out, payload);
            if (peers != null) {
                Wire.writePeers(out, peers);
            }
        }));
    }

    /** A request's bytes, written by {@code body}. */
    static byte[] request(IoWriter body) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        body.write(new DataOutputStream(b));
        return b.toByteArray();
    }

    /** Writes a request's fields. */
    interface IoWriter {
        void write(DataOutputStream out) throws IOException;
    }

    /**
     * The next answer for {@code rank}: read from the socket while no other local rank reads it, else handed on by the
     * one that does. The reader wakes only the rank whose answer it read, and on leaving passes the reading on to one
     * rank still waiting: a gather's 8 answers wake 8 threads, not 8 x 8. A {@link SocketTimeoutException} after the
     * wait's bound; an IOException once the connection broke.
     */
    byte[] receive(int rank) throws IOException {
        int me = rank - first;
        long deadline = System.nanoTime() + waitMillis * 1_000_000;
        lock.lock();
        try {
            asking[me] = true;
            while (true) {
                byte[] mine = waiting[me].poll();
                if (mine != null) {
                    return mine;
                }
                if (broken != null) {
                    throw new IOException(broken.getMessage(), broken);
                }
                if (!reading) {
                    byte[] read = readUntilMine(me);
                    if (read != null) {
                        return read;
                    }
                    continue;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new SocketTimeoutException("no answer within " + waitMillis + " ms");
                }
                answered[me].await(left, TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting for the store");
        } finally {
            asking[me] = false;
            lock.unlock();
        }
    }

    /** Reads answers (the lock held, released while reading) until one is {@code me}'s, handing the others on. */
    private byte[] readUntilMine(int me) throws IOException {
        reading = true;
        try {
            while (true) {
                int whose;
                byte[] body;
                lock.unlock();
                try {
                    whose = in.readInt();
                    int length = in.readInt();
                    boolean ours = whose == Wire.EVERY_RANK || (whose >= first && whose < first + count);
                    if (!ours || length < 0 || length > Wire.MAX_PAYLOAD * 2) {
                        throw new IOException("an answer for rank " + whose + " of " + length + " bytes on the connection of "
                                + ranks(first, count));
                    }
                    body = new byte[length];
                    in.readFully(body);
                } finally {
                    lock.lock();
                }
                if (whose == Wire.EVERY_RANK) {
                    // the same answer for each of this connection's ranks: they are all at this gather
                    for (int i = 0; i < count; i++) {
                        if (i != me) {
                            waiting[i].add(body);
                            answered[i].signal();
                        }
                    }
                    return body;
                }
                if (whose - first == me) {
                    return body;
                }
                waiting[whose - first].add(body);
                answered[whose - first].signal();
            }
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            broken = e;
            throw e;
        } finally {
            reading = false;
            if (broken != null) {
                for (Condition c : answered) {
                    c.signal();
                }
            } else {
                // the reading passes to one rank still waiting for its answer
                for (int i = 0; i < count; i++) {
                    if (i != me && asking[i] && waiting[i].isEmpty()) {
                        answered[i].signal();
                        break;
                    }
                }
            }
        }
    }

    /** {@code rank} says goodbye; the last of the process's ranks closes the connection. */
    void bye(int rank) {
        try {
            send(rank, request(o -> o.writeInt(Wire.OP_BYE)));
        } catch (IOException e) {
            // the store is gone already
        }
        boolean last;
        synchronized (this) {
            last = --open == 0;
        }
        if (last) {
            closeQuietly(socket);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
