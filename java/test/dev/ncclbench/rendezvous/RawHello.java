package dev.ncclbench.rendezvous;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A process that says hello in the store's own wire format and is then killed: the tests' lost ranks. */
final class RawHello {
    private RawHello() {
    }

    /**
     * Connects for ranks {@code first} to {@code first + count - 1} of {@code nranks} with no flags and no host, checks
     * both OKs, then resets the connection without a goodbye, as when the kernel cleans up a killed process.
     */
    static void connectAndVanish(InetSocketAddress store, byte[] token, int first, int count, int nranks) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(store, 5_000);
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            DataInputStream in = new DataInputStream(s.getInputStream());
            Wire.writeHello(out, token, Wire.readChallenge(in), first, count, nranks, "", "");
            out.flush();
            assertEquals(Wire.OK, in.readInt());
            assertEquals(Wire.OK, in.readInt());
            s.setSoLinger(true, 0);
        }
    }
}
