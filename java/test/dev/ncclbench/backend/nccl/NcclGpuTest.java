package dev.ncclbench.backend.nccl;

import dev.ncclbench.cli.Main;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.NativeLibraries;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Needs a GPU: run by scripts/gpu-selftest.sh. Skips with the reason elsewhere. */
@Tag("gpu")
class NcclGpuTest {
    @Test
    void oneGpuAllReduceSweepVerifies(@TempDir Path out) {
        NativeLibraries.Report libs = Host.of(System.getenv()).libraries();
        assumeTrue(libs.driver().present() && !libs.gpus().isEmpty(), "no GPU here: no NVIDIA driver (libcuda.so.1) or no GPU listed");
        assumeTrue(new NcclBackend().readiness(null, Host.of(System.getenv())).ready(), new NcclBackend().readiness(null, Host.of(System.getenv())).reason());
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = Main.run(new String[] {"sweep", "--backend", "nccl", "-g", "1", "-b", "8", "-e", "1M", "-f", "2",
                "--out", out.toString(), "--no-progress"}, new PrintWriter(o), new PrintWriter(e));
        assertEquals(0, code, o + "\n" + e);
        // the kernels of the jar's fatbin fill and check the buffers, and the header says so
        org.junit.jupiter.api.Assertions.assertTrue(o.toString().contains("data filled and checked on the GPU (kernels: fatbin)"), o.toString());
    }
}
