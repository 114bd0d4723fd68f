package dev.ncclbench.backend.socket;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.BackendException;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A mesh that cannot be completed leaves no socket open behind it (issue 7.5: an accept timeout leaked the dialled links). */
class MeshLinksTest {

    @Test
    void lowerRanksThatNeverConnectTimeOutNamingThemAndCloseTheLinksAlreadyDialled() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (ServerSocket rank2 = new ServerSocket(0, 8, lo);
             ServerSocketChannel rank1 = ServerSocketChannel.open().bind(new InetSocketAddress(lo, 0))) {
            // rank 1 of 3: it dials rank 2 (this test plays it) and waits for rank 0, which never comes
            List<InetSocketAddress> addresses = List.of(new InetSocketAddress(lo, 1),
                    (InetSocketAddress) rank1.getLocalAddress(), new InetSocketAddress(lo, rank2.getLocalPort()));
            BackendException e = assertThrows(BackendException.class,
                    () -> MeshLinks.connect(1, 3, 1, rank1, addresses, 1000));
            assertEquals(ExitCode.TIMEOUT, e.exitCode(), e.getMessage());
            assertTrue(e.getMessage().contains("rank 1: rank 0 did not connect within 1 s"), e.getMessage());
            try (Socket link = rank2.accept()) {
                // the failure is thrown after the links are closed, so end of stream is already there; the
                // timeout only turns a leak (the old code) into a failure instead of a hang
                link.setSoTimeout(30_000);
                DataInputStream in = new DataInputStream(link.getInputStream());
                assertEquals(1, in.readInt(), "the hello names the dialling rank");
                assertEquals(0, in.readInt(), "and the link index");
                InputStream raw = link.getInputStream();
                assertEquals(-1, raw.read(), "the dialled link was closed when the mesh gave up");
            }
        }
    }
}
