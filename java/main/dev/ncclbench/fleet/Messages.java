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
 * What rank 0 and the nodes say to each other during a search: length-prefixed JSON, every length bounded.
 * Rank 0 talks to each node on its own connection, so a node that dies or hangs costs only its own answer.
 */
final class Messages {
    static final int MAX_MESSAGE = 16 << 20;
    private static final ObjectMapper JSON = Json.mapper();

    private Messages() {
    }

    /** Rank 0's first words on a node's connection: a nonce for this connection alone (base64), which the hello answers. */
    record Challenge(String nonce) {
    }

    /**
     * A node's first words: its rank, its answer to the challenge (JobProof: proves the job's token, which never
     * crosses the wire), its name (HostName#node) and the flags that change what it measures (MeasuredFlags), which
     * must be every node's.
     */
    record Hello(int rank, String answer, String name, String flags) {
        /** Reads rank 0's challenge and answers it with the job's {@code token}. */
        static Hello answering(DataInputStream in, byte[] token, int rank, int nodes, String name, String flags)
                throws IOException {
            byte[] nonce = Base64.getDecoder().decode(read(in, Challenge.class).nonce());
            return new Hello(rank, Base64.getEncoder().encodeToString(JobProof.answer(token, nonce, rank, nodes)), name, flags);
        }
    }

    /** Rank 0's answer to a hello: null, the node is in the search; else why it is refused, one line. */
    record Welcome(String refused) {
    }

    /**
     * One group this node is in for a round, and where the group's own small store is; {@code salt} (base64, public)
     * makes the group's token of the job's ({@link JobProof#derive}): only the job's own processes can join the group.
     */
    record Assignment(int group, int groupRank, int groupSize, String storeHost, int storePort, String salt) {
        byte[] token(byte[] jobToken) {
            return JobProof.derive(jobToken, Base64.getDecoder().decode(salt));
        }
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
