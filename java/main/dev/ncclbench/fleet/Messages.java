package dev.ncclbench.fleet;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ncclbench.output.Json;
import dev.ncclbench.rendezvous.JobProof;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Base64;
import java.util.List;

/**
 * What rank 0 and the nodes say to each other during a search: length-prefixed JSON, every length bounded by what its
 * kind needs, and read as its bytes arrive (a length alone allocates nothing). Rank 0 talks to each node on its own
 * connection, so a node that dies or hangs costs only its own answer.
 */
final class Messages {
    /** The most any message may be: an order of many groups, a report of many samples. */
    static final int MAX_MESSAGE = 16 << 20;
    /**
     * A hello, before anything is proven: the rank, the answer, a host name and the measured flags (a few dozen short
     * lines), as the store bounds its own hello (about 32 KiB).
     */
    static final int MAX_HELLO = 32 << 10;
    /** Rank 0's challenge and its welcome or one-line refusal. */
    static final int MAX_SHORT = 8 << 10;
    /** A host name as a node gives it: what scontrol and the verdicts take (RFC 1123: at most 255). */
    static final int MAX_NAME = 255;
    private static final ObjectMapper JSON = Json.mapper();

    private Messages() {
    }

    /**
     * Rank 0's first words on a node's connection: its protocol version ({@link JobProof#VERSION}) and a nonce for this
     * connection alone (base64), which the hello answers.
     */
    record Challenge(int version, String nonce) {
    }

    /**
     * A node's first words: its version, its job's public id (JobProof#id, base64: a node of another job is told so), its
     * rank, its answer to the challenge (JobProof#join: proves the job's token, which never crosses the wire, and covers
     * the name and the flags as sent), its name (HostName#node: what a drain of it would use) and the flags that change
     * what it measures (MeasuredFlags), which must be every node's; with --rails, its rails as it found them (null
     * without), which the answer covers too ({@link #covered}).
     */
    record Hello(int version, String job, int rank, String answer, String name, String flags, List<NodeRail> rails) {
        /**
         * What the answer covers besides the rank and the name: the flags, and the node's rails (--rails) as it found
         * them, so that what rank 0 plans the rail round from is the node's own word, as its name is.
         */
        String covered() {
            return covered(flags, rails);
        }

        static String covered(String flags, List<NodeRail> rails) {
            if (rails == null) {
                return flags;
            }
            StringBuilder b = new StringBuilder(flags == null ? "" : flags).append("\n--rails-found");
            for (NodeRail r : rails) {
                b.append(' ').append(r.nic()).append('/').append(r.ifname()).append('/').append(r.address())
                        .append('/').append(r.down());
            }
            return b.toString();
        }

        /**
         * Reads rank 0's challenge and answers it with the job's {@code token}; {@code rails} (null without --rails) are
         * covered by the answer.
         */
        static Hello answering(DataInputStream in, byte[] token, int rank, int nodes, String name, String flags,
                               List<NodeRail> rails) throws IOException {
            Challenge c = read(in, Challenge.class, MAX_SHORT);
            if (c.version() != JobProof.VERSION) {
                throw new java.net.ProtocolException("rank 0 speaks protocol version " + c.version() + ", this process "
                        + JobProof.VERSION + ": start every node of the search from the same ncclbench");
            }
            byte[] nonce = Base64.getDecoder().decode(c.nonce());
            Base64.Encoder b64 = Base64.getEncoder();
            return new Hello(JobProof.VERSION, b64.encodeToString(JobProof.id(token)), rank,
                    b64.encodeToString(JobProof.join(token, nonce, rank, nodes, name, covered(flags, rails))), name, flags,
                    rails);
        }
    }

    /** Rank 0's answer to a hello: null, the node is in the search; else why it is refused, one line. */
    record Welcome(String refused) {
    }

    /**
     * One group this node is in for a round, and where the group's own small store is; {@code salt} (base64, public)
     * makes the group's token of the job's ({@link JobProof#derive}): only the job's own processes can join the group;
     * {@code rail} is the rail a rail round's group is held to (null: a node round's, on the node's own interfaces).
     */
    record Assignment(int group, int groupRank, int groupSize, String storeHost, int storePort, String salt, Integer rail) {
        byte[] token(byte[] jobToken) {
            return JobProof.derive(jobToken, Base64.getDecoder().decode(salt));
        }
    }

    /**
     * Rank 0's order for one round; {@code round} 0 means the search is over, and {@code decided} then says in one line
     * what rank 0 decided and where its files are (null in a round's order).
     */
    record Order(int round, List<Assignment> assignments, List<Long> sizes, List<String> collectives, int iters,
                 int warmup, long budgetMillis, String decided) {
        /** The search is over: what rank 0 decided. */
        static Order over(String decided) {
            return new Order(0, List.of(), List.of(), List.of(), 0, 0, 0, decided);
        }
    }

    /** Per-iteration times of one collective at one size, seconds, already the slowest member's. */
    record Samples(String collective, long bytes, double[] seconds) {
    }

    /**
     * One group's result from one member: samples, or why it failed; {@code unfinished} says which sizes did not
     * fit the round's time (null when all did): the result is then the rate the group reached.
     */
    record GroupResult(int group, List<Samples> samples, String error, String unfinished) {
    }

    /**
     * A node's answer to a round, or, with {@code heartbeat}, only "still here": a node sends one every few
     * seconds while it works, so that a slow round is told from a dead or hung node.
     */
    record Report(int round, int rank, List<GroupResult> groups, boolean heartbeat) {
        static Report beat(int round, int rank) {
            return new Report(round, rank, List.of(), true);
        }
    }

    /**
     * The longest report a node may answer {@code order} with: every group of it, every collective and size, every
     * sample a size may take ({@link GroupRun#MAX_ITERS} or -n, whichever is more) as JSON, with room for an error line
     * each; heartbeats are far shorter. Rank 0 reads no more of a node: a proven node cannot make it hold 16 MiB a report.
     */
    static int maxReport(Order order) {
        long samples = Math.max(order.iters(), GroupRun.MAX_ITERS) + 1L;
        long perSize = 256 + 26 * samples; // a double as JSON is at most 24 characters, then a comma
        long perGroup = 4096 + (long) order.collectives().size() * order.sizes().size() * perSize;
        return (int) Math.min(MAX_MESSAGE, MAX_SHORT + order.assignments().size() * perGroup);
    }

    static void write(DataOutputStream out, Object message) throws IOException {
        byte[] b = JSON.writeValueAsBytes(message);
        synchronized (out) {
            out.writeInt(b.length);
            out.write(b);
            out.flush();
        }
    }

    /**
     * The next message, of at most {@code max} bytes: a longer one is refused on its length, before any of it is read,
     * and the bytes are taken as they arrive (a peer that announces 16 MiB and sends 4 bytes costs 4 bytes).
     */
    static <T> T read(DataInputStream in, Class<T> type, int max) throws IOException {
        return read(in, type, () -> max);
    }

    /** {@link #read(DataInputStream, Class, int)} with the limit taken once the length has come (it may have grown meanwhile). */
    static <T> T read(DataInputStream in, Class<T> type, java.util.function.IntSupplier limit) throws IOException {
        int n = in.readInt();
        int max = limit.getAsInt();
        if (n < 0 || n > max) {
            throw new IOException("a message of " + n + " bytes is over the limit of " + max + " for a "
                    + type.getSimpleName().toLowerCase(java.util.Locale.ROOT));
        }
        byte[] b = in.readNBytes(n); // in 8 KiB pieces as they come, joined at the end
        if (b.length < n) {
            throw new java.io.EOFException("the connection closed " + b.length + " bytes into a message of " + n);
        }
        return JSON.readValue(b, type);
    }
}
