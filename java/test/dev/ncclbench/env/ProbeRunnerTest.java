package dev.ncclbench.env;

import dev.ncclbench.internal.jni.NcclResult;
import org.junit.jupiter.api.Test;

import java.net.NetworkInterface;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The real NCCL, in child processes (its environment is read once and a failed init is sticky). */
class ProbeRunnerTest {
    @Test
    void reportsVersionAndTheInterfaceNcclChose() throws Exception {
        Path lib = RealNccl.require();
        Map<String, String> unset = new java.util.HashMap<>(System.getenv());
        unset.remove("NCCL_SOCKET_IFNAME");
        unset.remove("NCCL_COMM_ID");
        ProbeResult r = ProbeRunner.probe(lib, Host.of(unset));
        assertNull(r.problem(), r.problem());
        assertTrue(r.loaded());
        assertTrue(r.versionString().startsWith("2.30."), r.versionString());
        assertEquals(NcclResult.SUCCESS, r.result(), r.toString());
        List<String> names = Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .map(NetworkInterface::getName).collect(Collectors.toList());
        assertNotNull(r.bootstrapInterface(), "no Bootstrap line in NCCL's log");
        assertTrue(names.contains(r.bootstrapInterface()), r.bootstrapInterface() + " not in " + names);
        // NCCL's rule: ib* first, then anything but docker/lo/virbr; lo only when nothing else is up.
        String expected = dev.ncclbench.netif.InterfaceAdvice.suggestion(dev.ncclbench.netif.InterfaceScan.local());
        assertEquals(expected, r.bootstrapInterface());
    }

    @Test
    void noSuchInterfaceIsInvalidUsageWithNcclsWarning() {
        Path lib = RealNccl.require();
        ProbeResult r = ProbeRunner.probe(lib, Host.of(Map.of("NCCL_SOCKET_IFNAME", "doesnotexist0")));
        assertTrue(r.loaded());
        assertTrue(r.bootstrapFailed());
        assertEquals(NcclResult.INVALID_USAGE, r.result());
        assertTrue(r.warnings().contains("Bootstrap : no socket interface found"), r.warnings().toString());
        assertEquals("Bootstrap : no socket interface found", r.lastError());
        assertNull(r.bootstrapInterface());
    }

    @Test
    void aMissingLibraryIsReportedNotThrown() {
        RealNccl.require();
        ProbeResult r = ProbeRunner.probe(Path.of("/nonexistent/libnccl.so.2"), Host.of(System.getenv()));
        assertFalse(r.loaded());
        assertNull(r.problem());
        assertTrue(r.dlError().contains("/nonexistent/libnccl.so.2"), r.dlError());
    }
}
