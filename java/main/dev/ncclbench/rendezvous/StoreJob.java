package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One job a store serves: its token, its ranks and their connections, and its own state, verdict and traffic. A store
 * serves one job (a sweep's rendezvous) or many at once on its one thread and port (fleet: every group of a round is
 * a job of its own), and a job's lost ranks, timeouts and verdict are its own: they never reach another job's ranks.
 *
 * <p>Everything but {@link #close} and {@link #traffic} runs on the store's thread.
 */
public final class StoreJob {
    final byte[] token;
    /** {@link #key(byte[])} of the token, computed once. */
    final ByteBuffer key;
    final int nranks;
    final long timeoutMillis;
    final StoreState state;
    final StoreTraffic traffic;
    final StoreConnection[] byRank;
    /** Each rank's host, as its process said in its hello (null: never connected): a hang names hosts too. */
    private final String[] hostOf;
    /** Its connections, hello accepted and not dropped: what closing the job drops. */
    final Set<StoreConnection> conns = new LinkedHashSet<>();
    private final StoreServer server;
    private final StoreWriter writer;
    /** Closed: its connections are being dropped, and a rank leaving now is not lost (the job is over). */
    volatile boolean closed;

    StoreJob(StoreServer server, StoreWriter writer, byte[] token, int nranks, long timeoutMillis, StoreTraffic traffic) {
        this.server = server;
        this.writer = writer;
        this.token = token.clone();
        this.key = key(token);
        this.nranks = nranks;
        this.timeoutMillis = timeoutMillis;
        this.traffic = traffic;
        this.byRank = new StoreConnection[nranks];
        this.hostOf = new String[nranks];
        this.state = new StoreState(nranks, timeoutMillis, new Answers(), r -> hostOf[r]);
    }

    /** The store's count of what went through it for this job. */
    public StoreTraffic traffic() {
        return traffic;
    }

    /** Ends the job as {@link StoreServer#close(Collection)} says; the store goes on serving its other jobs. */
    public void close() {
        server.close(List.of(this));
    }

    /** What the store files the job under: its public id, a digest of its token ({@link JobProof#id}). */
    static ByteBuffer key(byte[] token) {
        return ByteBuffer.wrap(JobProof.id(token));
    }

    /**
     * The clock, for this job: only where something waits on it. A store of a round's 75,000 groups ticks them all
     * ten times a second, and a group between its gathers has nothing to time.
     */
    void tick() {
        if (state.waiting()) {
            state.tick();
        }
    }

    /**
     * Whether {@code answer} is what only a holder of the token answers to {@code nonce} for these ranks, with these flags
     * and this host (as sent).
     */
    boolean proves(byte[] nonce, byte[] id, int first, int count, int n, byte[] answer, byte[] flags, byte[] host) {
        return !closed && JobProof.matches(JobProof.answer(token, JobProof.Role.STORE, nonce, id, first, count, n, flags, host),
                answer);
    }

    /**
     * A hello with this job's token for ranks {@code r} to {@code r + count - 1} of {@code n}: the refusal, or null
     * when the connection now speaks for them.
     */
    String admit(StoreConnection c, int r, int count, int n) {
        if (n != nranks || r < 0 || count < 1 || r > nranks - count) {
            return count == 1 ? "rank " + r + " of " + n + " does not fit a job of " + nranks + " ranks"
                    : "ranks " + r + "-" + ((long) r + count - 1) + " of " + n + " do not fit a job of " + nranks + " ranks";
        }
        for (int i = r; i < r + count; i++) {
            if (byRank[i] != null) {
                return "rank " + i + " is already connected";
            }
        }
        c.job = this;
        c.first = r;
        c.count = count;
        c.bye = new boolean[count];
        for (int i = r; i < r + count; i++) {
            byRank[i] = c;
        }
        conns.add(c);
        return null;
    }

    /** Ranks {@code first} to {@code first + count - 1} run on {@code host} (their process's hello). */
    void hosts(int first, int count, String host) {
        if (!host.isEmpty()) {
            java.util.Arrays.fill(hostOf, first, first + count, host);
        }
    }

    /** {@code c} closed; its ranks that left without a goodbye are lost, unless the job or the store is over. */
    void detach(StoreConnection c, boolean storeClosed) {
        conns.remove(c);
        for (int i = 0; i < c.count; i++) {
            byRank[c.first + i] = null;
            if (!c.bye[i] && !storeClosed && !closed) {
                state.lost(c.first + i, "its connection to the rendezvous closed (process killed or crashed?)");
            }
        }
    }

    /**
     * One request of {@code rank} on {@code c} (its rank read): a goodbye, a fault report, a gather or several. Returns
     * whether every rank of {@code c} has now said goodbye, so that the store closes it.
     */
    boolean request(StoreConnection c, int rank, ByteBuffer b) throws IOException {
        int op = b.getInt();
        switch (op) {
            case Wire.OP_BYE -> {
                traffic.read(0, 1);
                if (!c.bye[rank - c.first]) {
                    c.bye[rank - c.first] = true;
                    c.byes++;
                    state.departed(rank);
                }
                return c.byes == c.count;
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
                if (!valid(mode, root)) {
                    throw new IOException("a gather of mode " + mode + " root " + root);
                }
                int[] wanted = mode == Wire.PEERS ? peers(b) : null;
                traffic.read(0, 1);
                state.gather(rank, tag, mode, root, payload, wanted);
            }
            case Wire.OP_GATHERS -> gathers(c, b);
            default -> throw new IOException("unknown request " + op);
        }
        return false;
    }

    /** Several of the connection's ranks at one gather: read whole first, then each arrives as if alone. */
    private void gathers(StoreConnection c, ByteBuffer b) throws IOException {
        int mode = b.getInt();
        int root = b.getInt();
        String tag = Wire.getString(b, Wire.MAX_TAG);
        int k = b.getInt();
        if (!valid(mode, root) || k < 1 || k > c.count) {
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

    /** Whether a gather's mode is one of the wire's and its root a rank of the job. */
    private boolean valid(int mode, int root) {
        return mode >= Wire.ALL && mode <= Wire.PEERS && root >= 0 && root < nranks;
    }

    /** The ranks a {@link Wire#PEERS} request names: each a rank of the job, at most every rank. */
    int[] peers(ByteBuffer b) throws IOException {
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

    /**
     * Before jobs close: every decided job's ranks hear its verdict (one still starting too) rather than "the store went
     * away", as long as the longest timeout among them (at most a minute) for all together: a round of many failed groups
     * waits once, not once per group.
     */
    static void awaitTold(Collection<StoreJob> jobs) {
        long longest = jobs.stream().mapToLong(j -> j.timeoutMillis).max().orElse(0);
        long end = System.nanoTime() + Math.min(longest, 60_000) * 1_000_000;
        List<StoreJob> decided = jobs.stream().filter(j -> j.state.decided()).toList();
        for (StoreJob j : decided) {
            j.state.awaitEveryoneTold(Math.max(0, (end - System.nanoTime()) / 1_000_000));
        }
        long flushed = System.nanoTime() + 1_000_000_000L;
        for (StoreJob j : decided) {
            j.traffic.awaitFlushed(Math.max(0, (flushed - System.nanoTime()) / 1_000_000));
        }
    }

    /** The state's answers, encoded once per distinct content. */
    private final class Answers implements StoreState.Outbox {
        @Override
        public void complete(int[] ranks, int mode, int root, byte[][] payloads, int[][] wanted) {
            writer.together(() -> handOut(ranks, mode, root, payloads, wanted));
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
                    writer.answer(c, Wire.EVERY_RANK, same);
                    i += c.count - 1; // ranks are in order: the connection's others are answered
                    continue;
                }
                if (mode == Wire.PEERS) {
                    writer.answer(c, r, Wire.picked(payloads, wanted[r])); // each its own: O(its peers) bytes
                } else if (getsAll) {
                    all = all != null ? all : Wire.answer(payloads, nranks);
                    writer.answer(c, r, all);
                } else if (mode == Wire.FROM_ROOT) {
                    rootOnly = rootOnly != null ? rootOnly
                            : Wire.answer(new byte[][] {payloads == null ? new byte[0] : payloads[root]}, 1);
                    writer.answer(c, r, rootOnly);
                } else {
                    writer.answer(c, r, Wire.release());
                }
            }
        }

        @Override
        public void verdict(int rank, StoreState.Verdict v) {
            StoreConnection c = byRank[rank];
            if (c != null) {
                writer.answer(c, rank, Wire.failure(v.code(), v.message()));
            }
        }
    }
}
