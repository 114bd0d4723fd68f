package dev.ncclbench.diagnosis;

import dev.ncclbench.env.RealNccl;
import dev.ncclbench.netif.InterfaceScan;
import dev.ncclbench.netif.InterfaceSelector;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Logs written by the real libnccl.so.2 on this machine, read back by our reader: the bootstrap interface
 * NCCL logged must be the one our interface rules predict, and a bootstrap death must be diagnosed as one.
 * Each case runs the probe in a fresh process: NCCL reads its environment once.
 */
class RealNcclLogTest {
    @TempDir
    Path dir;

    /** Runs ncclGetUniqueId in a child with NCCL's INFO log on, returns the log. */
    private Path probeLog(String ifname) throws Exception {
        Path lib = RealNccl.require();
        Path log = dir.resolve("nccl." + (ifname == null ? "default" : ifname.replaceAll("[^a-z0-9]", "_")) + ".log");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.ncclbench.cli.Main", "probe-child", "--lib", lib.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("child.out").toFile());
        pb.environment().remove("NCCL_SOCKET_IFNAME");
        pb.environment().remove("NCCL_COMM_ID");
        if (ifname != null) {
            pb.environment().put("NCCL_SOCKET_IFNAME", ifname);
        }
        pb.environment().put("NCCL_DEBUG", "INFO");
        pb.environment().put("NCCL_DEBUG_SUBSYS", "INIT,BOOTSTRAP,ENV,NET");
        pb.environment().put("NCCL_DEBUG_FILE", log.toString());
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe child hung");
        assertTrue(Files.isRegularFile(log), "NCCL wrote no log: " + Files.readString(dir.resolve("child.out")));
        return log;
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "lo", "^lo", "=lo", "^=lo,eth"})
    void theBootstrapInterfaceNcclLoggedIsTheOneOurRulesPredict(String ifname) throws Exception {
        String setting = ifname.isEmpty() ? null : ifname;
        InterfaceSelector.Selection predicted = InterfaceSelector.current().select(InterfaceScan.local(), setting, null, null);
        NcclLogEvidence ev = new NcclLogReader().read(probeLog(setting)).evidence();
        if (predicted.empty()) {
            assertTrue(ev.bootstrap().isEmpty(), "NCCL bootstrapped although our rules find nothing: " + ev.bootstrap());
            assertFalse(ev.warnings().isEmpty(), "no WARN for an empty selection");
            return;
        }
        assertFalse(ev.bootstrap().isEmpty(), "no bootstrap line read from NCCL's own log");
        assertEquals(predicted.bootstrap().name(), ev.bootstrap().get(0).name(),
                "NCCL_SOCKET_IFNAME=" + setting + ": our rule (" + predicted.rule() + ") disagrees with NCCL");
    }

    @Test
    void aBootstrapDeathInTheRealLogIsDiagnosedAsOne() throws Exception {
        NcclLogEvidence ev = new NcclLogReader().read(probeLog("doesnotexist0")).evidence();
        Diagnosis d = Diagnoser.diagnose(ev);
        assertEquals(Health.INIT_FAILED, d.health(), d.toString());
        assertTrue(d.findings().stream().anyMatch(f -> f.ruleId().equals("BOOTSTRAP-NO-INTERFACE")), d.findings().toString());
        assertTrue(ev.warnings().stream().anyMatch(w -> w.message().contains("no socket interface found")), ev.warnings().toString());
    }
}
