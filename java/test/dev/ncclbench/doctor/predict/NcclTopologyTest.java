package dev.ncclbench.doctor.predict;

import dev.ncclbench.doctor.snapshot.PciFunction;
import dev.ncclbench.doctor.snapshot.PciTopology;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The PCIe distance and bandwidth NCCL's topology computes, on hand-built trees: each rule of xml.cc (a device hangs
 * two levels up, a root complex means the CPU), topo.cc (Broadcom switch flattening, inter-socket bandwidth) and
 * paths.cc (PIX, PXB, PHB, SYS).
 */
class NcclTopologyTest {
    private static final String BRIDGE = "0x060400";
    private final List<PciFunction> functions = new ArrayList<>();

    private String fn(String path, String cls, String ids, int numa, String speed, int width) {
        String[] id = ids.split(":");
        functions.add(new PciFunction(path.substring(path.lastIndexOf('/') + 1), path, cls, id[0], id[1], id[2], id[3], numa,
                speed, width, null, null, null));
        return path;
    }

    private NcclTopology topo(String... endpoints) {
        return NcclTopology.of(new PciTopology(PciTopology.Cpu.UNKNOWN, List.of(0, 1), functions), List.of(endpoints), 0);
    }

    @Test
    void aGpuAndANicUnderOneSwitchArePixTwoSwitchesPxbOneCpuPhbTwoSocketsSys() {
        String sw = "/sys/devices/pci0000:16/0000:16:01.0/0000:17:00.0";
        fn("/sys/devices/pci0000:16/0000:16:01.0", BRIDGE, "0x8086:0x352a:0x8086:0x0000", 0, "32.0 GT/s PCIe", 16);
        fn(sw, BRIDGE, "0x10b5:0x8796:0x10b5:0x8796", 0, "16.0 GT/s PCIe", 16);
        String gpu = fn(sw + "/0000:18:00.0/0000:19:00.0", "0x030200", "0x10de:0x2330:0x10de:0x16c1", 0, "16.0 GT/s PCIe", 16);
        String nic = fn(sw + "/0000:18:01.0/0000:1a:00.0", "0x020700", "0x15b3:0x1021:0x15b3:0x0041", 0, "32.0 GT/s PCIe", 16);
        String deep = fn(sw + "/0000:18:02.0/0000:1b:00.0/0000:1c:00.0/0000:1d:00.0", "0x020700", "0x15b3:0x1021:0x15b3:0x0041",
                0, "32.0 GT/s PCIe", 16);
        fn(sw + "/0000:18:02.0/0000:1b:00.0", BRIDGE, "0x10b5:0x8796:0x10b5:0x8796", 0, "16.0 GT/s PCIe", 16);
        String sameCpu = fn("/sys/devices/pci0000:30/0000:30:01.0/0000:31:00.0", "0x020700", "0x15b3:0x1021:0x15b3:0x0041", 0,
                "32.0 GT/s PCIe", 16);
        String otherCpu = fn("/sys/devices/pci0000:b0/0000:b0:01.0/0000:b1:00.0", "0x020700", "0x15b3:0x1021:0x15b3:0x0041",
                1, "32.0 GT/s PCIe", 16);
        NcclTopology t = topo(gpu, nic, deep, sameCpu, otherCpu);
        assertEquals(PathType.PIX, t.path(gpu, nic));
        assertEquals(PathType.PXB, t.path(gpu, deep));
        assertEquals(PathType.PHB, t.path(gpu, sameCpu));
        assertEquals(PathType.SYS, t.path(gpu, otherCpu));
        assertEquals(PathType.LOC, t.path(gpu, gpu));
        assertEquals(1, t.cpu(otherCpu));
        // the narrowest link: the GPU's Gen4 x16 (16 x 120 / 80 = 24 GB/s, NCCL's figure), not the NIC's Gen5
        assertEquals(24.0, t.bandwidth(gpu, nic, 10), 1e-9);
        assertEquals(10.0, t.bandwidth(gpu, otherCpu, 10), 1e-9, "across sockets: the inter-CPU link");
    }

    @Test
    void broadcomGen4SwitchesThatShowTwoLevelsAreOne() {
        // aliyun/SimAI topo_8A100_4CX6.xml: 0c (c010/a096) > 0e (c010/a096) > 11 (c010, NVIDIA subsystem) > GPU 13;
        // 0c > 15 (c010/a096) > NIC 1a. NCCL flattens 0e and 15 into 0c: GPU 13 and NIC 1a meet at 0c, PXB
        String root = "/sys/devices/pci0000:0b/0000:0b:01.0";
        String top = fn(root + "/0000:0c:00.0", BRIDGE, "0x1000:0xc010:0x1000:0xa096", 0, "16.0 GT/s PCIe", 16);
        String sub = fn(top + "/0000:0d:00.0/0000:0e:00.0", BRIDGE, "0x1000:0xc010:0x1000:0xa096", 0, "16.0 GT/s PCIe", 16);
        String nv = fn(sub + "/0000:0f:00.0/0000:11:00.0", BRIDGE, "0x1000:0xc010:0x10de:0x13b8", 0, "16.0 GT/s PCIe", 16);
        String gpu = fn(nv + "/0000:12:00.0/0000:13:00.0", "0x030200", "0x10de:0x20f3:0x10de:0x1463", 0, "16.0 GT/s PCIe", 16);
        String sub2 = fn(top + "/0000:0d:01.0/0000:15:00.0", BRIDGE, "0x1000:0xc010:0x1000:0xa096", 0, "16.0 GT/s PCIe", 16);
        String nic = fn(sub2 + "/0000:16:01.0/0000:1a:00.0", "0x020000", "0x15b3:0x101d:0x15b3:0x0064", 0, "16.0 GT/s PCIe", 16);
        String nic2 = fn(sub2 + "/0000:16:02.0/0000:1b:00.0", "0x020000", "0x15b3:0x101d:0x15b3:0x0064", 0, "16.0 GT/s PCIe", 16);
        NcclTopology t = topo(gpu, nic, nic2);
        assertEquals(PathType.PXB, t.path(gpu, nic));
        assertEquals(PathType.PIX, t.path(nic, nic2), "both hang from 0c once 15 is flattened into it");
        // a switch of another make is not flattened: the same shape with PLX ids keeps 15, and the NICs still share it
        functions.replaceAll(f -> f.address().equals("0000:15:00.0") ? new PciFunction(f.address(), f.path(), BRIDGE, "0x10b5",
                "0x8796", "0x10b5", "0x8796", 0, "16.0 GT/s PCIe", 16, null, null, null) : f);
        assertEquals(PathType.PIX, topo(gpu, nic, nic2).path(nic, nic2));
        assertEquals(PathType.PXB, topo(gpu, nic, nic2).path(gpu, nic));
    }

    @Test
    void aDeviceUnderTheRootBusOrBelowAVirtioFunctionHangsFromItsCpu() {
        String gpu = fn("/sys/devices/pci0000:00/0000:00:02.0", "0x030000", "0x10de:0x27b0:0x10de:0x16fa", 0, null, 0);
        String virtio = "/sys/devices/pci0000:00/0000:00:05.0/virtio2";
        fn("/sys/devices/pci0000:00/0000:00:05.0", "0x020000", "0x1af4:0x1000:0x1af4:0x0001", 0, null, 0);
        NcclTopology t = topo(gpu, virtio);
        assertEquals(PathType.PHB, t.path(gpu, virtio));
        assertEquals(NcclTopology.UNLIMITED, t.bandwidth(gpu, virtio, 10), "no link width known: unlimited, not zero");
    }

    @Test
    void theInterSocketBandwidthIsNcclsForTheCpu() {
        assertEquals(22, NcclTopology.interCpuGBps(new PciTopology.Cpu("x86_64", "GenuineIntel", 6, 143)));
        assertEquals(10, NcclTopology.interCpuGBps(new PciTopology.Cpu("x86_64", "GenuineIntel", 6, 106)));
        assertEquals(40, NcclTopology.interCpuGBps(new PciTopology.Cpu("x86_64", "GenuineIntel", 6, 207)));
        assertEquals(16, NcclTopology.interCpuGBps(new PciTopology.Cpu("x86_64", "AuthenticAMD", 25, 1)));
        assertEquals(6, NcclTopology.interCpuGBps(new PciTopology.Cpu("aarch64", null, null, null)));
        assertEquals(NcclTopology.UNLIMITED, NcclTopology.interCpuGBps(PciTopology.Cpu.UNKNOWN));
    }

    @Test
    void laneRatesAreNcclsTable() {
        assertEquals(240.0, NcclTopology.laneRate("32.0 GT/s PCIe"));
        assertEquals(240.0, NcclTopology.laneRate("32 GT/s"));
        assertEquals(120.0, NcclTopology.laneRate("16.0 GT/s PCIe"));
        assertEquals(15.0, NcclTopology.laneRate("2.5 GT/s PCIe"));
        assertEquals(null, NcclTopology.laneRate("Unknown"));
    }
}
