package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rank 0 whose host name does not resolve is said as that, exit 3, and not as a rank 0 that never came up after the
 * whole join window. ".invalid" never resolves (RFC 6761), so the test needs no DNS of its own.
 */
class HostLookupTest {
    private static final byte[] TOKEN = "host-lookup-test-token-32-bytes!".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aNameThatDoesNotResolveIsSaidAsThatExit3() {
        InetSocketAddress rank0 = InetSocketAddress.createUnresolved("rank0.ncclbench.invalid", 29500);
        NcclbenchException e = assertThrows(NcclbenchException.class,
                () -> StoreClient.connect(rank0, TOKEN, 1, 2, 1_500));
        assertEquals(ExitCode.ENVIRONMENT, e.exitCode());
        assertTrue(e.getMessage().startsWith("rank 1: rank 0's host name 'rank0.ncclbench.invalid' does not resolve"),
                e.getMessage());
        assertTrue(e.getMessage().contains("MASTER_ADDR"), e.getMessage());
    }

    @Test
    void aNameThatResolvesButHasNoStoreIsStillATimeout() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        NcclbenchException e = assertThrows(NcclbenchException.class,
                () -> StoreClient.connect(InetSocketAddress.createUnresolved("localhost", port), TOKEN, 1, 2, 1_000));
        assertEquals(ExitCode.TIMEOUT, e.exitCode());
        assertTrue(e.getMessage().startsWith("rank 1 could not reach the rendezvous store"), e.getMessage());
    }

    @Test
    void anUnresolvedNameIsLookedUpAgain() {
        InetSocketAddress later = HostLookup.again(InetSocketAddress.createUnresolved("localhost", 1));
        assertFalse(later.isUnresolved());
        assertFalse(HostLookup.stillUnresolved(later, System.nanoTime(), 1_000, "rank 1"));
    }
}
