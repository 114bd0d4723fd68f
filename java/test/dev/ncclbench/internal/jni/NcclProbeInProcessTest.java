package dev.ncclbench.internal.jni;

import dev.ncclbench.env.RealNccl;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Only what is safe in a long-lived process: loading and the version (a constant). */
class NcclProbeInProcessTest {
    @Test
    void versionIs230() {
        Path lib = RealNccl.require();
        NcclProbe.open(lib);
        assertTrue(NcclProbe.isOpen());
        assertTrue(NcclProbe.versionString(NcclProbe.version()).startsWith("2.30."), NcclProbe.versionString(NcclProbe.version()));
        assertEquals(lib.toString(), NcclProbe.loadedPath());
        assertTrue(NcclProbe.hasSymbol("ncclGetUniqueId"));
        assertFalse(NcclProbe.hasSymbol("ncclNoSuchFunction"));
        assertEquals("invalid usage (run with NCCL_DEBUG=WARN for details)", NcclProbe.errorString(5));
    }
}
