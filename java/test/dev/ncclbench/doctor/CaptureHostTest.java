package dev.ncclbench.doctor;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ncclbench.CliRun;
import dev.ncclbench.doctor.predict.RailTable;
import dev.ncclbench.doctor.snapshot.HostCollector;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.NetLink;
import dev.ncclbench.doctor.snapshot.PciTopology;
import dev.ncclbench.env.Host;
import dev.ncclbench.output.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scripts/capture-host.sh run for real on this machine, then `doctor --root` on what it wrote: the rail table's
 * evidence is captured (every PCI function on a device's path), and a host with no RDMA NIC and no GPU says so plainly.
 */
class CaptureHostTest {
    private static final Path BASE = Path.of(System.getProperty("ncclbench.basedir", ".")).toAbsolutePath();

    private static String run(Path dir, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), String.join(" ", cmd) + ": " + out);
        return out;
    }

    @Test
    void aCaptureOfThisMachineCarriesThePciPathsAndDoctorReadsIt(@TempDir Path dir) throws Exception {
        Path tree = dir.resolve("tree");
        String out = run(BASE, "bash", BASE.resolve("scripts/capture-host.sh").toString(), tree.toString());
        assertTrue(out.contains("capture-host: wrote " + tree), out);
        HostSnapshot s = HostCollector.capture(tree);
        HostSnapshot live = HostCollector.live(Host.of(System.getenv()));
        assertEquals(live.interfaces().stream().map(NetLink::name).toList(), s.interfaces().stream().map(NetLink::name).toList());
        for (NetLink l : s.interfaces()) {
            if (l.pciPath() != null) {
                List<String> chain = PciTopology.chain(l.pciPath());
                for (String fn : chain) {
                    assertTrue(s.pci().at(fn).isPresent(), l.name() + ": " + fn + " captured");
                }
                assertEquals(live.pci().at(chain.get(chain.size() - 1)).orElseThrow(), s.pci().at(chain.get(chain.size() - 1))
                        .orElseThrow(), "the capture reads as the live host does");
            }
        }
        assertEquals(live.pci().cpu(), s.pci().cpu());
        assertEquals(live.pci().numaNodes(), s.pci().numaNodes());
        assertEquals(RailTable.of(live.withEnv(s.env())).rails(), RailTable.of(s).rails());

        CliRun text = CliRun.cli("doctor", "--no-probe-nccl", "--root", tree.toString());
        assertTrue(text.code() == 0 || text.code() == 3, text.err());
        assertTrue(text.out().contains("rails (transport "), text.out());
        if (!Files.isDirectory(Path.of("/sys/class/infiniband"))) {
            assertTrue(text.out().contains("no RDMA NIC (/sys/class/infiniband is empty or absent): NCCL will use sockets"),
                    text.out());
        }
        if (s.pci().gpus().isEmpty() && s.nvidia().gpus().isEmpty()) {
            assertTrue(text.out().contains("no GPU found"), text.out());
        }
        JsonNode doc = Json.mapper().readTree(CliRun.cli("doctor", "--no-probe-nccl", "--json", "-", "--root", tree.toString()).out());
        assertEquals(s.pci().gpus().size() + s.nvidia().gpus().stream().filter(g -> s.pci().function(g.busId()).isEmpty())
                .count(), doc.path("rails").path("rails").size());
        assertFalse(doc.path("rails").path("notes").isMissingNode());
    }

    @Test
    void theTarballFormUnpacksToTheSameEvidence(@TempDir Path dir) throws Exception {
        Path tarball = dir.resolve("host.tar.gz");
        run(BASE, "bash", BASE.resolve("scripts/capture-host.sh").toString(), tarball.toString());
        Path tree = Files.createDirectory(dir.resolve("unpacked"));
        run(dir, "tar", "-C", tree.toString(), "-xzf", tarball.toString());
        HostSnapshot s = HostCollector.capture(tree);
        assertEquals(HostCollector.live(Host.of(System.getenv())).pci().functions().size() >= s.pci().functions().size(), true);
        assertTrue(CliRun.cli("doctor", "--no-probe-nccl", "--root", tree.toString()).out().contains("rails (transport "));
    }
}
