package dev.ncclbench.doctor.predict;

import dev.ncclbench.doctor.snapshot.PciTopology;
import dev.ncclbench.doctor.snapshot.PortRate;
import dev.ncclbench.netif.NcclNameList;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** NCCL's NIC merging (ncclTopoMakeVNics, NCCL_IB_MERGE_NICS) and its GPU-to-NIC choice (ncclTopoGetLocalNetType). */
class NicAssignmentTest {
    private static final String SW = "/sys/devices/pci0000:16/0000:16:01.0/0000:17:00.0";

    private static NicPort port(String name, String path, String layer) {
        return new NicPort(name + ":1", name, 1, NicPort.IB, path.substring(path.lastIndexOf('/') + 1), path, 0, null,
                "ACTIVE", "LinkUp", PortRate.parse("200 Gb/sec (4X HDR)"), layer, null, null, true);
    }

    private static RailSettings settings(boolean merge) {
        return new RailSettings(NcclNameList.parse(null), false, false, merge, true, PathType.PORT, 0, List.of());
    }

    private static NcclTopology topo(List<String> endpoints) {
        return NcclTopology.of(PciTopology.NONE, endpoints, -1);
    }

    @Test
    void theTwoFunctionsOfADualPortCardAreOneNicUnlessMergingIsOff() {
        NicPort a = port("mlx5_0", SW + "/0000:18:01.0/0000:1a:00.0", "InfiniBand");
        NicPort b = port("mlx5_1", SW + "/0000:18:01.0/0000:1a:00.1", "InfiniBand");
        NicPort c = port("mlx5_2", SW + "/0000:18:02.0/0000:1b:00.0", "InfiniBand");
        NcclTopology t = topo(List.of(a.pciPath(), b.pciPath(), c.pciPath()));
        List<NicAssignment.Nic> merged = NicAssignment.nics(List.of(a, b, c), settings(true), t, p -> p.rate().gbps());
        assertEquals(List.of("mlx5_0+mlx5_1", "mlx5_2"), merged.stream().map(NicAssignment.Nic::name).toList());
        assertEquals(400.0, merged.get(0).gbps(), "a merged NIC's speed is its ports' sum");
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2"), NicAssignment.nics(List.of(a, b, c), settings(false), t,
                p -> p.rate().gbps()).stream().map(NicAssignment.Nic::name).toList());
        // NCCL refuses to merge InfiniBand with Ethernet (net_ib makeVDevice)
        NicPort eth = port("mlx5_1", SW + "/0000:18:01.0/0000:1a:00.1", "Ethernet");
        assertEquals(List.of("mlx5_0", "mlx5_1"), NicAssignment.nics(List.of(a, eth), settings(true), t,
                p -> p.rate().gbps()).stream().map(NicAssignment.Nic::name).toList());
    }

    @Test
    void gpusSharingTheirNicsSplitThemWithMirroredBits() {
        assertEquals(0, NicAssignment.mirrorBits(0, 2));
        assertEquals(1, NicAssignment.mirrorBits(1, 2));
        assertEquals(2, NicAssignment.mirrorBits(1, 4));
        assertEquals(1, NicAssignment.mirrorBits(2, 4));
        assertEquals(0, NicAssignment.mirrorBits(1, 1));
        // four GPUs on one switch with two NICs: NCCL puts GPUs 0 and 2 on the first, 1 and 3 on the second
        List<String> gpus = List.of(SW + "/0000:18:00.0/0000:19:00.0", SW + "/0000:18:01.0/0000:1a:00.0",
                SW + "/0000:18:02.0/0000:1b:00.0", SW + "/0000:18:03.0/0000:1c:00.0");
        NicPort n0 = port("mlx5_0", SW + "/0000:18:04.0/0000:1d:00.0", "InfiniBand");
        NicPort n1 = port("mlx5_1", SW + "/0000:18:05.0/0000:1e:00.0", "InfiniBand");
        java.util.ArrayList<String> all = new java.util.ArrayList<>(gpus);
        all.add(n0.pciPath());
        all.add(n1.pciPath());
        NcclTopology t = topo(all);
        List<NicAssignment.Pick> picks = NicAssignment.assign(gpus, NicAssignment.nics(List.of(n0, n1), settings(true), t,
                p -> p.rate().gbps()), t, 10, 0);
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_0", "mlx5_1"), picks.stream().map(p -> p.nics().get(0).name()).toList());
        assertEquals(PathType.PIX, picks.get(0).distance());
        // NCCL_NETDEVS_POLICY=ALL: every GPU spreads its channels over both
        assertEquals(2, NicAssignment.assign(gpus, NicAssignment.nics(List.of(n0, n1), settings(true), t, p -> p.rate().gbps()),
                t, 10, -1).get(0).nics().size());
    }

    @Test
    void aNarrowerNicLosesToAWiderOneAtTheSameDistance() {
        String gpu = SW + "/0000:18:00.0/0000:19:00.0";
        NicPort fast = port("mlx5_0", SW + "/0000:18:01.0/0000:1a:00.0", "InfiniBand");
        NicPort slow = port("mlx5_1", SW + "/0000:18:02.0/0000:1b:00.0", "Ethernet");
        NcclTopology t = topo(List.of(gpu, fast.pciPath(), slow.pciPath()));
        List<NicAssignment.Nic> nics = NicAssignment.nics(List.of(slow, fast), settings(true), t,
                p -> p == fast ? 400 : 100);
        assertEquals(List.of("mlx5_0"), NicAssignment.assign(List.of(gpu), nics, t, 10, 0).get(0).nics().stream()
                .map(NicAssignment.Nic::name).toList());
    }
}
