package dev.ncclbench.launch;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import dev.ncclbench.env.Host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The one host name helper: the kernel's name without DNS, cut at the first dot; --node-name and Slurm win. */
class HostNameTest {

    @Test
    void theKernelsNameCutAtTheFirstDot() throws Exception {
        Path proc = Path.of("/proc/sys/kernel/hostname");
        String full = Files.isReadable(proc) ? Files.readString(proc).strip() : HostName.kernel(true);
        assertEquals(full, HostName.kernel(true));
        String shortName = full.contains(".") ? full.substring(0, full.indexOf('.')) : full;
        assertEquals(shortName, HostName.kernel());
        assertFalse(HostName.kernel().isEmpty());
    }

    @Test
    void nodeNameFlagWinsThenSlurmThenTheKernel() {
        Map<String, String> slurm = Map.of("SLURM_JOB_ID", "42", "SLURMD_NODENAME", "gpu017");
        assertEquals("rack3-n1", HostName.node("rack3-n1", Host.of(slurm)));
        assertEquals("gpu017", HostName.node(null, Host.of(slurm)));
        // SLURMD_NODENAME left in an environment outside a Slurm job does not count
        assertEquals(HostName.kernel(), HostName.node(null, Host.of(Map.of("SLURMD_NODENAME", "gpu017"))));
        assertEquals(HostName.kernel(), HostName.node(" ", Host.of(Map.of())));
    }
}
