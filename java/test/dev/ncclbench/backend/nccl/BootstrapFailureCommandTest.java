package dev.ncclbench.backend.nccl;

import dev.ncclbench.env.RealNccl;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NCCL_SOCKET_IFNAME=doesnotexist0: the commands exit 3 with NCCL's sentence and the fix (a child JVM: env is per process). */
class BootstrapFailureCommandTest {
    private static String[] run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dncclbench.basedir=" + System.getProperty("ncclbench.basedir", "."),
                "-cp", System.getProperty("java.class.path"), "dev.ncclbench.cli.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("NCCL_SOCKET_IFNAME", "doesnotexist0");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new String[] {String.valueOf(p.exitValue()), out};
    }

    @Test
    void probeAndSweepExit3WithNcclsSentenceAndTheFix() throws Exception {
        RealNccl.require();
        for (String[] args : List.of(new String[] {"probe"}, new String[] {"sweep", "--backend", "nccl", "-b", "8", "-e", "64"})) {
            String[] r = run(args);
            assertEquals("3", r[0], r[1]);
            assertTrue(r[1].contains("Bootstrap : no socket interface found"), r[1]);
            assertTrue(r[1].contains("set NCCL_SOCKET_IFNAME="), r[1]);
        }
    }
}
