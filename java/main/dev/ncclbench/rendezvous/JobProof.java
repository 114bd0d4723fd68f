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
 * How a process proves that it holds its job's token without sending it: the store sends each connection a fresh
 * random nonce, and the hello answers with an HMAC-SHA256 under the token over that nonce, the job's id and the ranks
 * it speaks for. What crosses the wire is the job's id (a digest of the token, which tells nothing of it) and an answer
 * good for one connection only: a sniffed hello replayed on another connection meets another nonce.
 */
public final class JobProof {
    public static final int NONCE_BYTES = 16;
    /** The job's id on the wire: it picks the job among those a store serves, and proves nothing. */
    public static final int ID_BYTES = 16;
    public static final int ANSWER_BYTES = 32;
    private static final String HMAC = "HmacSHA256";
    private static final SecureRandom RANDOM = new SecureRandom();

    private JobProof() {
    }

    /** A digest of {@code token} under a label of its own, so that neither the token nor any answer can be made of it. */
    static byte[] id(byte[] token) {
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

    /** What a process holding {@code token} answers to {@code nonce} for ranks {@code first..first+count-1} of {@code nranks}. */
    static byte[] answer(byte[] token, byte[] nonce, byte[] id, int first, int count, int nranks) {
        Mac mac = mac(token);
        mac.update("ncclbench hello\0".getBytes(StandardCharsets.US_ASCII));
        mac.update(nonce);
        mac.update(id);
        mac.update(ByteBuffer.allocate(12).putInt(first).putInt(count).putInt(nranks).array());
        return mac.doFinal();
    }

    /** Whether {@code presented} is the answer due: compared in constant time, so that its timing tells nothing. */
    static boolean matches(byte[] due, byte[] presented) {
        return MessageDigest.isEqual(due, presented);
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
     * store's): the same HMAC, for the node's rank.
     */
    public static byte[] answer(byte[] token, byte[] nonce, int rank, int nodes) {
        return answer(token, nonce, id(token), rank, 1, nodes);
    }

    /** {@link #answer(byte[], byte[], int, int)} checked in constant time. */
    public static boolean proves(byte[] token, byte[] nonce, int rank, int nodes, byte[] presented) {
        return presented != null && matches(answer(token, nonce, rank, nodes), presented);
    }

    private static Mac mac(byte[] token) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(token, HMAC));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
