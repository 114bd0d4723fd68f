package dev.ncclbench.fleet;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ncclbench.output.Json;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;

/**
 * What rank 0 and the nodes say to each other during a search: length-prefixed JSON, every length bounded.
 * Rank 0 talks to each node on its own connection, so a node that dies or hangs costs only its own answer.
 */
final class Messages {
    static final int MAX_MESSAGE = 16 << 20;
    private static final ObjectMapper JSON = Json.mapper();

    private Messages() {
    }

    /**
     * A node's first words: its rank, the job's token (see Rendezvous#place), its name (HostName#node) and the flags
     * that change what it measures (MeasuredFlags), which must be every node's.
     */
    record Hello(int rank, String token, String name, String flags) {
    }

    /** One group this node is in for a round, and where the group's own small store is. */
    record Assignment(int group, int groupRank, int groupSize, String storeHost, int storePort, String token) {
    }

    /** Rank 0's order for one round; {@code round} 0 means the search is over. */
    record Order(int round, List<Assignment> assignments, List<Long> sizes, List<String> collectives, int iters,
                 int warmup, long budgetMillis) {
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

    static void write(DataOutputStream out, Object message) throws IOException {
        byte[] b = JSON.writeValueAsBytes(message);
        synchronized (out) {
            out.writeInt(b.length);
            out.write(b);
            out.flush();
        }
    }

    static <T> T read(DataInputStream in, Class<T> type) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_MESSAGE) {
            throw new IOException("a message of " + n + " bytes is over the limit of " + MAX_MESSAGE);
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return JSON.readValue(b, type);
    }
}
