package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The store's wire format: big-endian ints, length-prefixed bytes, every length bounded. */
final class Wire {
    static final int MAGIC = 0x4E434252; // "NCBR"
    /** 2: a failure carries its exit code; ranks report their own failures (OP_FAULT). */
    static final int VERSION = 2;
    static final int TOKEN_BYTES = 16;
    /** One payload: addresses, a unique id, a few thousand timings. Bigger is a bug or an attack. */
    static final int MAX_PAYLOAD = 16 << 20;
    static final int MAX_TAG = 256;

    static final int OP_GATHER = 1;
    static final int OP_BYE = 2;
    /** A rank failed: self (int 0/1), exit code, the step it was at, its sentence; answered with the job's verdict. */
    static final int OP_FAULT = 3;

    static final int OK = 0;
    static final int FAILED = 1;

    private Wire() {
    }

    static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
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
}
