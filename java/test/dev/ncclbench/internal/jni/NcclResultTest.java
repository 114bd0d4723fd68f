package dev.ncclbench.internal.jni;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class NcclResultTest {
    @Test
    void valuesMatchNcclH() {
        assertEquals(0, NcclResult.SUCCESS.code);
        assertEquals(1, NcclResult.UNHANDLED_CUDA_ERROR.code);
        assertEquals(2, NcclResult.SYSTEM_ERROR.code);
        assertEquals(3, NcclResult.INTERNAL_ERROR.code);
        assertEquals(4, NcclResult.INVALID_ARGUMENT.code);
        assertEquals(5, NcclResult.INVALID_USAGE.code);
        assertEquals(6, NcclResult.REMOTE_ERROR.code);
        assertEquals(7, NcclResult.IN_PROGRESS.code);
        assertEquals(8, NcclResult.TIMEOUT.code);
        assertEquals(NcclResult.UNKNOWN, NcclResult.of(9));
    }

    /** rocksjava's way: the native side raises every code and Java must map each one back. */
    @Test
    void everyCodeRaisedNativelyMapsBack() {
        assumeTrue(NativeLoader.available(), "the probe JNI library was not built (no gcc/g++ when mvn ran)");
        for (NcclResult r : NcclResult.values()) {
            if (r == NcclResult.UNKNOWN) {
                continue;
            }
            assertEquals(r, NcclProbe.raise(r.code), r.cName);
            if (r != NcclResult.SUCCESS) {
                NcclProbeException e = org.junit.jupiter.api.Assertions.assertThrows(NcclProbeException.class,
                        () -> NcclProbe.check(NcclProbeNative.ncclprobe_test_raise(r.code), "raise"));
                assertEquals(r, e.result());
                assertEquals(r.code, e.status());
            }
        }
        assertEquals(NcclResult.UNKNOWN, NcclProbe.raise(42));
    }

    @Test
    void versionStrings() {
        assertEquals("2.30.7", NcclProbe.versionString(23007));
        assertEquals("2.7.8", NcclProbe.versionString(2708));
    }

    @Test
    void setenvReachesTheCEnvironment() {
        assumeTrue(NativeLoader.available(), "the probe JNI library was not built");
        NcclProbe.setenv("NCCLBENCH_TEST_VAR", "x1", true);
        assertEquals("x1", NcclProbe.getenv("NCCLBENCH_TEST_VAR"));
        NcclProbe.setenv("NCCLBENCH_TEST_VAR", "x2", false);
        assertEquals("x1", NcclProbe.getenv("NCCLBENCH_TEST_VAR"));
    }
}
