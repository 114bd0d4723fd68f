package dev.ncclbench.doctor;

import dev.ncclbench.doctor.predict.PathType;
import dev.ncclbench.doctor.predict.RailTable;
import dev.ncclbench.doctor.snapshot.HostCollector;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.finding.Finding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Trees from real hosts miss files (an old kernel, a capture cut short, a file only root may read): a missing file is
 * missing evidence, and the table says nothing it does not show. Each case deletes files from a fixture with the real
 * find, then judges what is left: the planted fault is still named, and no healthy rail is accused.
 */
class RailMissingFilesTest {
    /** The fixture unpacked into {@code dir}, less every file named one of {@code names}. */
    private static HostSnapshot without(Path dir, String fixture, String... names) throws IOException, InterruptedException {
        Path tree = dir.resolve(fixture);
        run("cp", "-a", RailTrees.tree(fixture).toString(), tree.toString());
        for (String name : names) {
            run("find", tree.toString(), "-name", name, "-type", "f", "-delete");
        }
        return HostCollector.capture(tree);
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + out);
    }

    private static Map<Integer, String> verdicts(RailTable t) {
        Map<Integer, String> out = new TreeMap<>();
        t.rails().forEach(r -> out.put(r.rail(), r.verdict().word));
        return out;
    }

    private static List<String> railFindings(HostSnapshot s) {
        return HostFixturesTest.judge(s).findings().stream().filter(f -> f.ruleId().startsWith("RAIL-"))
                .map(Finding::title).toList();
    }

    @Test
    void withoutPhysStateOrLinkLayerAnActivePortIsStillUpAndTheSlowOneStillNamed(@TempDir Path dir) throws Exception {
        // NCCL opens a port by its state alone; every kernel writes link_layer, but a capture may lack it
        HostSnapshot s = without(dir, "h100-port-2x", "phys_state", "link_layer");
        RailTable t = RailTable.of(s);
        assertEquals("IB", t.transport());
        assertEquals(Map.of(0, "ok", 1, "ok", 2, "ok", 3, "trained down", 4, "ok", 5, "ok", 6, "ok", 7, "ok"),
                verdicts(t));
        List<String> f = railFindings(s);
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).startsWith("rail 3 (GPU 0000:5d:00.0): mlx5_5:1: 200 Gb/sec (2X NDR)"), f.get(0));
        List<String> text = RailText.lines(t);
        assertTrue(text.stream().noneMatch(l -> l.contains("null")), text.toString());
        assertTrue(text.get(2).contains(" ACTIVE ") && text.get(2).contains(" unknown "), text.get(2));
    }

    @Test
    void rdmaDevicesNcclsIbTransportSkipsAreSaidToBeAPluginsAndTheRailsAreInterfaces(@TempDir Path dir) throws Exception {
        // EFA devices are RDMA devices whose link layer is neither InfiniBand nor Ethernet: NCCL's IB transport skips
        // them; aws-ofi-nccl may carry the traffic, which the table does not claim to know
        HostSnapshot s = without(dir, "h100-8x8-healthy");
        run("find", dir.resolve("h100-8x8-healthy").toString(), "-name", "link_layer", "-type", "f", "-exec", "sh", "-c",
                "echo Unknown > \"$1\"", "sh", "{}", ";");
        RailTable t = RailTable.of(HostCollector.capture(dir.resolve("h100-8x8-healthy")));
        assertEquals("Socket", t.transport());
        assertTrue(t.notes().stream().anyMatch(n -> n.contains("link layer Unknown") && n.contains("net plugin")),
                t.notes().toString());
        assertEquals("IB", RailTable.of(s).transport());
    }

    @Test
    void withoutRatesNothingIsTrainedDown(@TempDir Path dir) throws Exception {
        HostSnapshot s = without(dir, "h100-port-2x", "rate");
        RailTable t = RailTable.of(s);
        t.rails().forEach(r -> assertEquals("ok", r.verdict().word, r.label()));
        assertEquals(List.of(), railFindings(s));
    }

    @Test
    void withoutNumaNodesOrPcieLinksNoGpuIsCalledFarAndThePairingHolds(@TempDir Path dir) throws Exception {
        HostSnapshot s = without(dir, "h100-8x8-healthy", "numa_node", "max_link_speed", "max_link_width",
                "current_link_speed", "current_link_width", "cpuinfo");
        RailTable t = RailTable.of(s);
        assertEquals(List.of("mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"),
                t.rails().stream().map(r -> r.nic()).toList());
        t.rails().forEach(r -> assertEquals(PathType.PIX, r.distance(), r.label()));
        assertEquals(List.of(), railFindings(s));
    }

    @Test
    void withoutTheGpusPciClassTheDriversListStillGivesEveryRail(@TempDir Path dir) throws Exception {
        // a container that hides /sys/bus/pci attributes but shows /proc/driver/nvidia/gpus
        HostSnapshot s = without(dir, "h100-8x8-healthy", "class", "vendor", "device");
        RailTable t = RailTable.of(s);
        assertEquals(8, t.rails().size(), RailText.lines(t).toString());
        assertEquals(List.of(), railFindings(s));
    }
}
