package dev.ncclbench.preflight;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * `ncclbench preflight` in the multi-homed lab (scripts/lab/preflight.sh): two ranks in two namespaces; with
 * NCCL_SOCKET_IFNAME unset both say DEGRADED naming eth0 and the fix (exit 6), with rdma0 both say PASS (exit 0).
 * The script checks exit codes and verdict lines itself (exit 1 when one is wrong); this test checks them again
 * from the lines it prints. Root only.
 */
class PreflightLabTest {
    private static final Path BASE = Path.of(System.getProperty("ncclbench.basedir", ".")).toAbsolutePath();

    @Test
    void degradedNamingEth0WhenUnsetAndPassOnRdma0(@TempDir Path dir) throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "network namespaces need root (CI runs as root)");
        assumeTrue(ok("ip", "-V"), "iproute2 (ip) is not installed");
        assumeTrue(ok("tc", "-V"), "tc (iproute2) is not installed");
        // the jar is not built yet while tests run: the lab runs this JVM's class path
        Path launcher = dir.resolve("ncclbench");
        Files.writeString(launcher, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
                + "' -XX:TieredStopAtLevel=1 -cp '" + System.getProperty("java.class.path") + "' dev.ncclbench.cli.Main \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder pb = new ProcessBuilder("bash", BASE.resolve("scripts/lab/preflight.sh").toString(),
                "--keep", dir.resolve("kept").toString()).redirectErrorStream(true);
        pb.environment().put("NCCLBENCH_CMD", launcher.toString());
        pb.environment().put("LAB_PREFIX", "preflight-t" + ProcessHandle.current().pid() % 100000 + "-");
        pb.environment().remove("NCCL_SOCKET_IFNAME");
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes());
        int code = p.waitFor();
        System.out.println(out);
        assertEquals(0, code, out);
        List<String> lines = out.lines().filter(l -> l.matches("^[1-4]\\. .*")).toList();
        assertEquals(4, lines.size(), out);
        for (String l : lines.subList(0, 2)) {
            assertTrue(l.contains("exit 6: DEGRADED: NCCL_SOCKET_IFNAME is unset and NCCL will pick eth0")
                    && l.endsWith("set NCCL_SOCKET_IFNAME=rdma0"), out);
        }
        assertTrue(lines.get(2).contains("rank 0: exit 0: PASS: "), out);
        assertTrue(lines.get(3).contains("rank 1: exit 0: PASS: "), out);
    }

    private static boolean ok(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (java.io.IOException | InterruptedException e) {
            return false;
        }
    }
}
