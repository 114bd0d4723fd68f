package dev.ncclbench.backend.nccl;

import dev.ncclbench.backend.Readiness;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.NativeLibraries;
import dev.ncclbench.env.NativeLibraries.Found;
import dev.ncclbench.env.NativeLibraries.Report;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reason the nccl backend cannot run names the first thing missing in the order a person fixes them: the driver
 * (no GPU) before NCCL, NCCL before its CUDA runtime. Machines described by what was found on them; no probe runs.
 */
class NcclReadinessTest {
    private static final Path NCCL = Path.of("/opt/nccl/lib/libnccl.so.2");

    private static Found found(String library, String path) {
        return new Found(library, path == null ? null : Path.of(path), path == null ? null : "test", List.of());
    }

    private static Report machine(String nccl, String cudart, String driver) {
        return new Report(found(NativeLibraries.NCCL, nccl), found(NativeLibraries.CUDART, cudart),
                found(NativeLibraries.DRIVER, driver), found(NativeLibraries.NVML, null), null, List.of());
    }

    @Test
    void noDriverIsNoGpuEvenWithNcclThere() {
        // scripts/fetch-nccl.sh on a machine without a GPU: installing NCCL is not what it lacks
        Readiness r = NcclReadiness.assess(machine(NCCL.toString(), null, null), false, Host.of(Map.of())).readiness();
        assertFalse(r.ready());
        assertEquals("no GPU: no NVIDIA driver (libcuda.so.1 not found); NCCL found at " + NCCL, r.reason());
        assertTrue(r.remedy().startsWith("install the NVIDIA driver"), r.remedy());
    }

    @Test
    void noDriverAndNoNcclIsNoGpuFirst() {
        Readiness r = NcclReadiness.assess(machine(null, null, null), false, Host.of(Map.of())).readiness();
        assertEquals("no GPU: no NVIDIA driver (libcuda.so.1 not found); no NCCL either", r.reason());
    }

    @Test
    void aDriverWithoutNcclIsNoNccl() {
        Readiness r = NcclReadiness.assess(machine(null, "/usr/lib/libcudart.so.13", "/usr/lib/libcuda.so.1"), false, Host.of(Map.of())).readiness();
        assertTrue(r.reason().startsWith("no NCCL: libnccl.so.2 not found"), r.reason());
        assertTrue(r.remedy().contains("pip install nvidia-nccl-cu13"), r.remedy());
    }

    @Test
    void aDriverAndNcclWithoutTheRuntimeIsNoCudaRuntime() {
        Readiness r = NcclReadiness.assess(machine(NCCL.toString(), null, "/usr/lib/libcuda.so.1"), false, Host.of(Map.of())).readiness();
        assertEquals("NCCL found at " + NCCL + ", but no CUDA runtime: libcudart.so.13 not found", r.reason());
    }

    @Test
    void everythingFoundIsReady() {
        Readiness r = NcclReadiness.assess(machine(NCCL.toString(), "/usr/lib/libcudart.so.13", "/usr/lib/libcuda.so.1"),
                false, Host.of(Map.of())).readiness();
        assertTrue(r.ready(), r.reason());
    }
}
