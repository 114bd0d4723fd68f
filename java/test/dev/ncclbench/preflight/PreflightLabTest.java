package dev.ncclbench.preflight;

import dev.ncclbench.labs.LabScript;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
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
@Tag("lab")
class PreflightLabTest {

    @Test
    void degradedNamingEth0WhenUnsetAndPassOnRdma0(@TempDir Path dir) throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "network namespaces need root (CI runs as root)");
        assumeTrue(LabScript.available("ip", "-V"), "iproute2 (ip) is not installed");
        assumeTrue(LabScript.available("tc", "-V"), "tc (iproute2) is not installed");
        LabScript.Result r = LabScript.run(dir, "preflight.sh", "preflight-t" + ProcessHandle.current().pid() % 100000 + "-");
        String out = r.output();
        int code = r.code();
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
}
