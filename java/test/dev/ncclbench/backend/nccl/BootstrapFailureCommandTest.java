package dev.ncclbench.backend.nccl;

import dev.ncclbench.env.Host;
import dev.ncclbench.env.NativeLibraries;
import dev.ncclbench.env.RealNccl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** NCCL_SOCKET_IFNAME=doesnotexist0: the commands exit 3 with NCCL's sentence and the fix (a child JVM: env is per process). */
class BootstrapFailureCommandTest {
    private static String[] run(String... args) throws Exception {
        return run(java.util.Map.of(), args);
    }

    private static String[] run(java.util.Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dncclbench.basedir=" + System.getProperty("ncclbench.basedir", "."),
                "-cp", System.getProperty("java.class.path"), "dev.ncclbench.cli.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("NCCL_SOCKET_IFNAME", "doesnotexist0");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new String[] {String.valueOf(p.exitValue()), out};
    }

    @Test
    void probeAndSweepExit3WithNcclsSentenceAndTheFix(@TempDir Path dir) throws Exception {
        RealNccl.require();
        java.util.Map<String, String> env = java.util.Map.of();
        if (!Host.of(System.getenv()).libraries().driver().present()) {
            // the nccl backend's readiness asks NCCL only where there is a driver: here a file by its name stands
            // for one (ncclGetUniqueId loads no CUDA, so nothing opens it)
            Files.createFile(dir.resolve(NativeLibraries.DRIVER));
            String ld = System.getenv("LD_LIBRARY_PATH");
            env = java.util.Map.of("LD_LIBRARY_PATH", dir + (ld == null || ld.isEmpty() ? "" : ":" + ld));
        }
        for (String[] r : List.of(run("probe"), run(env, "sweep", "--backend", "nccl", "-b", "8", "-e", "64"))) {
            assertEquals("3", r[0], r[1]);
            assertTrue(r[1].contains("Bootstrap : no socket interface found"), r[1]);
            assertTrue(r[1].contains("set NCCL_SOCKET_IFNAME="), r[1]);
        }
    }

    /** Without a driver the GPU is what is missing first, whatever NCCL would say of the network. */
    @Test
    void withoutADriverTheSweepSaysNoGpuFirst() throws Exception {
        RealNccl.require();
        assumeFalse(Host.of(System.getenv()).libraries().driver().present(), "this machine has an NVIDIA driver");
        String[] r = run("sweep", "--backend", "nccl", "-b", "8", "-e", "64");
        assertEquals("3", r[0], r[1]);
        assertTrue(r[1].startsWith("ncclbench: the nccl backend cannot run here: no GPU: no NVIDIA driver"), r[1]);
        assertFalse(r[1].contains("Bootstrap"), r[1]);
    }
}
