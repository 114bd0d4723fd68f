package dev.ncclbench.env;

import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

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
        List<Finding> f = Missing.of(libs, null);
        assertEquals(List.of(Missing.NO_NCCL, Missing.NO_CUDART, Missing.NO_DRIVER, Missing.NO_GPU),
                f.stream().map(Finding::ruleId).toList());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(Missing.line(f.get(2)).startsWith("NVIDIA driver (libcuda.so.1) not found: install the NVIDIA"),
                Missing.line(f.get(2)));
    }

    @Test
    void nothingMissingIsAnEmptyList() {
        NativeLibraries.Found here = new NativeLibraries.Found("x", Path.of("/x"), "test", List.of());
        NativeLibraries.Report libs = new NativeLibraries.Report(here, here, here, here, "580.1", List.of("GPU 0"));
        assertEquals(List.of(), Missing.of(libs, null));
    }
}
