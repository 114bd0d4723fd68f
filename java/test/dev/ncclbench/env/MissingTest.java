package dev.ncclbench.env;

import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What env and the nccl backend say is missing is one list of findings, built from the library report. */
class MissingTest {
    private static NativeLibraries.Found none(String lib) {
        return new NativeLibraries.Found(lib, null, null, List.of());
    }

    @Test
    void aBareMachineLacksEverythingInOrder() {
        NativeLibraries.Report libs = new NativeLibraries.Report(none(NativeLibraries.NCCL),
                none(NativeLibraries.CUDART), none(NativeLibraries.DRIVER), none(NativeLibraries.NVML), null, List.of());
        List<Finding> f = Missing.of(libs, null, null, Set.of());
        assertEquals(List.of(Missing.NO_NCCL, Missing.NO_CUDART, Missing.NO_DRIVER, Missing.NO_GPU),
                f.stream().map(Finding::ruleId).toList());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(Missing.line(f.get(2)).startsWith("NVIDIA driver (libcuda.so.1) not found: install the NVIDIA"),
                Missing.line(f.get(2)));
    }

    /**
     * Where to get NCCL is said as it is where ncclbench runs: a checkout's scripts/fetch-nccl.sh (by its path, from
     * any folder), never to a bundle, which carries none (it advised it anyway).
     */
    @Test
    void fetchNcclIsAdvisedOnlyWhereItIs(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path bundle = dir.resolve("ncclbench-0.1.0");
        java.nio.file.Files.createDirectories(bundle.resolve("scripts"));
        assertEquals("pip install nvidia-nccl-cu13 (PyTorch's NCCL) or set NCCL_HOME to the folder holding"
                + " lib/libnccl.so.2", Missing.ncclSourcesLine(bundle));
        assertEquals(Missing.ncclSourcesLine(bundle), Missing.ncclSourcesLine(null), "a jar on its own");
        Path checkout = dir.resolve("clone");
        java.nio.file.Files.createDirectories(checkout.resolve("scripts"));
        java.nio.file.Files.writeString(checkout.resolve("scripts/fetch-nccl.sh"), "#!/bin/sh\n");
        assertEquals("pip install nvidia-nccl-cu13 (PyTorch's NCCL), set NCCL_HOME to the folder holding lib/libnccl.so.2"
                + " or run " + checkout.resolve("scripts/fetch-nccl.sh") + " (into the checkout's deps/nccl)",
                Missing.ncclSourcesLine(checkout));
        assertTrue(Missing.ncclSources(null).stream().noneMatch(r -> r.contains("fetch-nccl")));
    }

    @Test
    void nothingMissingIsAnEmptyList() {
        NativeLibraries.Found here = new NativeLibraries.Found("x", Path.of("/x"), "test", List.of());
        NativeLibraries.Report libs = new NativeLibraries.Report(here, here, here, here, "580.1", List.of("GPU 0"));
        assertEquals(List.of(), Missing.of(libs, null, null, Set.of()));
    }
}
