package dev.ncclbench.rendezvous;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * How a process proves that it holds its job's token without sending it: rank 0 sends each connection a fresh
 * random nonce, and the hello answers with an HMAC-SHA256 under the token over that nonce, the job's id, the ranks it
 * speaks for and everything else the hello says. What crosses the wire is the job's id (a digest of the token, which
 * tells nothing of it) and an answer good for one connection, one role and one hello only: a sniffed hello replayed on
 * another connection meets another nonce, and one whose name or flags were changed on the way no longer matches.
 *
 * <p>The token is the secret bound to its job ({@link #token}): two jobs given the same secret still have two tokens.
 */
public final class JobProof {
    /**
     * The one protocol version of the rendezvous: the store's wire and fleet's join. 2: a failure carries its exit
     * code; ranks report their own failures. 3: a gather says who gets what; ranks present their flags. 4: a rank asks
     * only the payloads of the ranks it names. 5: a connection speaks for a process's local ranks. 6: the store speaks
     * first (a nonce); the hello names the job by its id and answers the nonce instead of carrying the token.
     * 7: the token binds the secret to the launcher, the job id and the world size; the answer carries a label per role
     * ({@link Role}) and covers the hello's flags and host (fleet: the node's name); fleet's join says its version and
     * rank 0 tells each node what it decided.
     */
    public static final int VERSION = 7;
    public static final int NONCE_BYTES = 16;
    /** The job's id on the wire: it picks the job among those a store serves, and proves nothing. */
    public static final int ID_BYTES = 16;
    public static final int ANSWER_BYTES = 32;
    private static final String HMAC = "HmacSHA256";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Who answers: a rank joining the store, or a node joining fleet's search. An answer for one is no answer for the other. */
    enum Role {
        STORE("ncclbench store hello\0"),
        FLEET("ncclbench fleet join\0");

        private final byte[] label;

        Role(String label) {
            this.label = label.getBytes(StandardCharsets.US_ASCII);
        }
    }

    private JobProof() {
    }

    /**
     * The job's token: HMAC-SHA256 under the secret of the launcher, the job id and the world size, which every process
     * of one job reads alike from its launcher. A process of another job given the same secret (a reused
     * NCCLBENCH_TOKEN, one Kubernetes Secret for every run) makes another token, and is refused as another job.
     */
    public static byte[] token(String secret, String launcher, String jobId, int world) {
        Mac mac = mac(secret.getBytes(StandardCharsets.UTF_8));
        mac.update("ncclbench job\0".getBytes(StandardCharsets.US_ASCII));
        field(mac, launcher.getBytes(StandardCharsets.UTF_8));
        field(mac, (jobId == null ? "" : jobId).getBytes(StandardCharsets.UTF_8));
        mac.update(ByteBuffer.allocate(4).putInt(world).array());
        return mac.doFinal();
    }

    /** A digest of {@code token} under a label of its own, so that neither the token nor any answer can be made of it. */
    public static byte[] id(byte[] token) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update("ncclbench job id\0".getBytes(StandardCharsets.US_ASCII));
            return Arrays.copyOf(d.digest(token), ID_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** 16 fresh random bytes: a connection's challenge, or a group's public salt ({@link #derive}); never reused. */
    public static byte[] nonce() {
        byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /**
     * What a process holding {@code token} answers to {@code nonce} in {@code role} for ranks
     * {@code first..first+count-1} of {@code nranks}, covering {@code said} (the rest of its hello, as sent: flags,
     * host or name), each after its length so that no two hellos share an answer.
     */
    static byte[] answer(byte[] token, Role role, byte[] nonce, byte[] id, int first, int count, int nranks, byte[]... said) {
        Mac mac = mac(token);
        mac.update(role.label);
        mac.update(nonce);
        mac.update(id);
        mac.update(ByteBuffer.allocate(12).putInt(first).putInt(count).putInt(nranks).array());
        for (byte[] s : said) {
            field(mac, s);
        }
        return mac.doFinal();
    }

    /** Whether {@code presented} is the answer due: compared in constant time, so that its timing tells nothing. */
    static boolean matches(byte[] due, byte[] presented) {
        return presented != null && MessageDigest.isEqual(due, presented);
    }

    /**
     * The token of a sub-job (one of fleet's groups) made of the job's token and a public {@code salt}: the salt may
     * travel, and only a process holding the job's token can make the group's.
     */
    public static byte[] derive(byte[] token, byte[] salt) {
        Mac mac = mac(token);
        mac.update("ncclbench group\0".getBytes(StandardCharsets.US_ASCII));
        return mac.doFinal(salt);
    }

    /**
     * What a node answers rank 0's challenge with when it joins fleet's search (a connection of its own, not the
     * store's): the HMAC in the fleet role, for the node's rank, covering the name it gives (what a drain would use)
     * and its flags.
     */
    public static byte[] join(byte[] token, byte[] nonce, int rank, int nodes, String name, String flags) {
        return answer(token, Role.FLEET, nonce, id(token), rank, 1, nodes, utf8(name), utf8(flags));
    }

    /**
     * What a hello naming another job hears ({@code served}: "this store", "this search"). The token binds the secret to
     * the launcher, the job id and the world size, so a process of another job hears it even with the same secret.
     */
    public static String wrongJob(String served) {
        return "wrong job token: " + served + " belongs to another job, or this process was given another NCCLBENCH_TOKEN"
                + " than rank 0 (the token binds the secret to the launcher, the job id and the world size: a process of"
                + " another job is refused even with the same secret)";
    }

    /** {@link #join} checked in constant time. */
    public static boolean proves(byte[] token, byte[] nonce, int rank, int nodes, String name, String flags, byte[] presented) {
        return matches(join(token, nonce, rank, nodes, name, flags), presented);
    }

    private static byte[] utf8(String s) {
        return (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
    }

    private static void field(Mac mac, byte[] b) {
        mac.update(ByteBuffer.allocate(4).putInt(b.length).array());
        mac.update(b);
    }

    private static Mac mac(byte[] key) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
