package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The store's wire format: big-endian ints, length-prefixed bytes, every length bounded. */
final class Wire {
    static final int MAGIC = 0x4E434252; // "NCBR"
    /** The store's first words on a connection: magic, version, the nonce. */
    static final int CHALLENGE_BYTES = 8 + JobProof.NONCE_BYTES;
    /** One payload: addresses, a unique id, a few thousand timings. Bigger is a bug or an attack. */
    static final int MAX_PAYLOAD = 16 << 20;
    static final int MAX_TAG = 256;

    static final int OP_GATHER = 1;
    static final int OP_BYE = 2;
    /** A rank failed: self (int 0/1), exit code, the step it was at, its sentence; answered with the job's verdict. */
    static final int OP_FAULT = 3;
    /**
     * Several ranks of the connection at one gather (mode, root, tag, how many, then each rank, its payload and under
     * {@link #PEERS} the ranks it asks): each is answered on its own, as if it had come alone.
     */
    static final int OP_GATHERS = 5;
    /**
     * The flags that change what a process measures, one "flag value" a line, end its hello (empty: none to compare).
     * Longer is a bug: they are a few dozen short lines.
     */
    static final int MAX_FLAGS = 16 << 10;

    /** Who gets what of a gather (the int after OP_GATHER, then the root): every rank every payload. */
    static final int ALL = 0;
    /** The root every payload; the others an empty answer once all have arrived. O(N) bytes at the root, O(1) elsewhere. */
    static final int TO_ROOT = 1;
    /** Every rank the root's payload (a broadcast); the others' payloads are empty. */
    static final int FROM_ROOT = 2;
    /** Every rank an empty answer once all have arrived (a barrier). */
    static final int NOTHING = 3;
    /**
     * Every rank the payloads of the ranks it names (after its payload: a count, then the ranks), in the order named:
     * a rank of a ring and a few partners receives O(its peers) bytes, not all N.
     */
    static final int PEERS = 4;

    static final byte[] EMPTY = new byte[0];
    /** The answer of every barrier and of every rank but the root of a gather to the root: encoded once. */
    private static final ByteBuffer RELEASE = ByteBuffer.allocate(8).putInt(0).putInt(0).flip().asReadOnlyBuffer();

    static final int OK = 0;
    static final int FAILED = 1;

    private Wire() {
    }

    /** The store's challenge to a new connection. */
    static ByteBuffer challenge(byte[] nonce) {
        return ByteBuffer.allocate(CHALLENGE_BYTES).putInt(MAGIC).putInt(JobProof.VERSION).put(nonce).flip();
    }

    /** Reads the store's challenge: the nonce, once magic and version are the ones this process speaks. */
    static byte[] readChallenge(DataInputStream in) throws IOException {
        int magic = in.readInt();
        int version = in.readInt();
        if (magic != MAGIC) {
            throw new IOException("not an ncclbench rendezvous store (it said 0x" + Integer.toHexString(magic) + ")");
        }
        if (version != JobProof.VERSION) {
            throw new java.net.ProtocolException("the store speaks protocol version " + version + ", this process "
                    + JobProof.VERSION + ": start every process of the job from the same ncclbench");
        }
        byte[] nonce = new byte[JobProof.NONCE_BYTES];
        in.readFully(nonce);
        return nonce;
    }

    /**
     * The hello of a process holding {@code token} for ranks {@code first..first+count-1} of {@code nranks}, answering
     * {@code nonce}: magic, version, the job's id, the ranks, the answer (which covers the flags and the host as sent),
     * then the flags and the host.
     */
    static void writeHello(DataOutputStream out, byte[] token, byte[] nonce, int first, int count, int nranks, String flags,
                           String host) throws IOException {
        byte[] id = JobProof.id(token);
        byte[] f = flags.getBytes(StandardCharsets.UTF_8);
        byte[] h = host.getBytes(StandardCharsets.UTF_8);
        out.writeInt(MAGIC);
        out.writeInt(JobProof.VERSION);
        out.write(id);
        out.writeInt(first);
        out.writeInt(count);
        out.writeInt(nranks);
        out.write(JobProof.answer(token, JobProof.Role.STORE, nonce, id, first, count, nranks, f, h));
        writeBytes(out, f);
        writeBytes(out, h);
    }

    static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    /** The ranks a {@link #PEERS} request asks: how many, then each (StoreJob.peers reads them). */
    static void writePeers(DataOutputStream out, int[] peers) throws IOException {
        out.writeInt(peers.length);
        for (int p : peers) {
            out.writeInt(p);
        }
    }

    static byte[] readBytes(DataInputStream in, int max) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > max) {
            throw new IOException("message of " + n + " bytes is over the limit of " + max);
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    /** FAILED, the exit code, the sentence: the code travels, so no reader guesses it from the words. */
    static void writeFailure(DataOutputStream out, ExitCode code, String message) throws IOException {
        out.writeInt(FAILED);
        out.writeInt(code.code);
        writeString(out, message);
    }

    static void writeString(DataOutputStream out, String s) throws IOException {
        writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
    }

    static String readString(DataInputStream in, int max) throws IOException {
        return new String(readBytes(in, max), StandardCharsets.UTF_8);
    }

    /** The store's side, on buffers: {@code n} bytes after their length, or an underflow while they have not all arrived. */
    static byte[] getBytes(ByteBuffer b, int max) throws IOException {
        int n = b.getInt();
        if (n < 0 || n > max) {
            throw new IOException("message of " + n + " bytes is over the limit of " + max);
        }
        if (b.remaining() < n) {
            throw new BufferUnderflowException();
        }
        if (n == 0) {
            return EMPTY; // a barrier's: 16384 a size at 8192 ranks
        }
        byte[] out = new byte[n];
        b.get(out);
        return out;
    }

    static String getString(ByteBuffer b, int max) throws IOException {
        return new String(getBytes(b, max), StandardCharsets.UTF_8);
    }

    static ByteBuffer ok() {
        return ByteBuffer.allocate(4).putInt(OK).flip();
    }

    static ByteBuffer failure(ExitCode code, String message) {
        byte[] m = message.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(12 + m.length).putInt(FAILED).putInt(code.code).putInt(m.length).put(m).flip();
    }

    /**
     * The rank of an answer's frame that holds the answer of every rank of the connection (a barrier's release to a
     * node's 8 ranks: one frame, not 8).
     */
    static final int EVERY_RANK = -1;

    /** An answer's frame on a connection of several ranks: whose it is ({@link #EVERY_RANK}: all) and how long. */
    static ByteBuffer frame(int rank, int length) {
        return ByteBuffer.allocate(8).putInt(rank).putInt(length).flip();
    }

    /** OK and no payload: shared, as {@link StoreServer} sends only duplicates. */
    static ByteBuffer release() {
        return RELEASE;
    }

    /** OK, then the payloads of {@code ranks} in that order, each after its length. */
    static ByteBuffer picked(byte[][] payloads, int[] ranks) {
        long size = 8;
        for (int r : ranks) {
            size += 4 + payloads[r].length;
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("an answer of " + size + " bytes");
        }
        ByteBuffer b = ByteBuffer.allocate((int) size).putInt(OK).putInt(ranks.length);
        for (int r : ranks) {
            b.putInt(payloads[r].length).put(payloads[r]);
        }
        return b.flip();
    }

    /** OK, the count, each payload after its length; {@code payloads} null: {@code count} empty ones. */
    static ByteBuffer answer(byte[][] payloads, int count) {
        long size = 8 + 4L * count;
        if (payloads != null) {
            for (byte[] p : payloads) {
                size += p.length;
            }
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("an answer of " + size + " bytes");
        }
        ByteBuffer b = ByteBuffer.allocate((int) size).putInt(OK).putInt(count);
        for (int i = 0; i < count; i++) {
            byte[] p = payloads == null ? new byte[0] : payloads[i];
            b.putInt(p.length).put(p);
        }
        return b.flip();
    }
}
