package dev.ncclbench.doctor;

import dev.ncclbench.doctor.predict.NicPort;
import dev.ncclbench.doctor.predict.PathType;
import dev.ncclbench.doctor.predict.Rail;
import dev.ncclbench.doctor.predict.RailTable;
import dev.ncclbench.doctor.predict.RailVerdict;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.Nvidia;
import dev.ncclbench.doctor.snapshot.SnapshotJson;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rail table on sysfs trees of real layouts ({@link RailTrees}; sources in rails/README.md): every
 * verdict on the tree that plants it, named with its rail, GPU, port and numbers, and no healthy rail accused anywhere.
 */
class RailFixturesTest {
    static HostSnapshot rails(String name) {
        return RailTrees.snapshot(name);
    }

    static HostSnapshot withEnv(HostSnapshot s, String... kv) {
        Map<String, String> env = new HashMap<>(s.env());
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        return s.withEnv(env);
    }

    private static List<Finding> railFindings(HostSnapshot s) {
        return HostFixturesTest.judge(s).findings().stream().filter(f -> f.ruleId().startsWith("RAIL-")).toList();
    }

    /** rail index -> verdict word, for every rail: what the table says in one line. */
    private static Map<Integer, String> verdicts(RailTable t) {
        Map<Integer, String> out = new java.util.TreeMap<>();
        t.rails().forEach(r -> out.put(r.rail(), r.verdict().word));
        return out;
    }

    private static Map<Integer, String> allOk(int n) {
        return allOkBut(n);
    }

    /** n rails "ok" but for the (rail, verdict) pairs given. */
    private static Map<Integer, String> allOkBut(int n, Object... railAndVerdict) {
        Map<Integer, String> out = new java.util.TreeMap<>();
        for (int i = 0; i < n; i++) {
            out.put(i, "ok");
        }
        for (int i = 0; i < railAndVerdict.length; i += 2) {
            out.put((Integer) railAndVerdict[i], (String) railAndVerdict[i + 1]);
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"h100-8x8-healthy", "h100-8x8-healthy-capture", "a800-roce-2gpu-per-nic",
        "h100-pcie-2gpu-per-switch", "socket-only-10gbe", "h100-sriov-vfs", "h100-storage-cx7-on-root"})
    void noHealthyRailIsAccused(String host) {
        HostSnapshot s = rails(host);
        RailTable t = RailTable.of(s);
        assertEquals(allOk(t.rails().size()), verdicts(t), RailText.lines(t).toString());
        assertEquals(List.of(), railFindings(s), host);
        assertFalse(t.rails().isEmpty(), host + " has GPUs");
        t.rails().forEach(r -> assertFalse(r.ports().isEmpty(), r.label()));
    }

    @Test
    void anHgxH100PairsEachGpuWithTheNicOnItsSwitchAndLeavesTheStorageNicsOut() {
        RailTable t = RailTable.of(rails("h100-8x8-healthy"));
        assertEquals(NicPort.IB, t.transport());
        List<String> nics = t.rails().stream().map(Rail::nic).toList();
        assertEquals(List.of("mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"), nics);
        t.rails().forEach(r -> assertEquals(PathType.PIX, r.distance(), r.label()));
        t.rails().forEach(r -> assertEquals(List.of(r.nic()), r.ncclUses(), r.label()));
        assertEquals("0000:19:00.0", t.rails().get(0).gpu().busId());
        assertEquals(1, t.rails().get(4).gpu().numaNode());
        // the dual-port ConnectX-6 Dx on GPU 0's switch: Ethernet, PCIe Gen 4, not the rail (NCCL prefers the wider path)
        assertEquals(List.of("mlx5_1:1", "mlx5_2:1", "mlx5_7:1", "mlx5_8:1"), t.otherPorts().stream().map(NicPort::name).toList());
        NicPort p = t.rails().get(0).ports().get(0);
        assertEquals("400 Gb/sec (4X NDR)", p.rate().text());
        assertEquals("InfiniBand", p.linkLayer());
        assertEquals("ibp26s0", p.netdev());
        assertEquals("0000:1a:00.0", p.pciAddress());
        assertEquals("0x15b3:0x1021", p.model());
    }

    @Test
    void storageCardsOfTheComputeNicsModelOnRootPortsAreNoGpusRail() {
        // a DGX H100's two dual-port ConnectX-7 storage cards, up on NDR, merged into one 800G NIC each: the GPU's own
        // PCIe link caps both paths alike, so NCCL keeps the nearer (PIX) compute NIC, and the storage ports are no
        // rail's siblings (a storage port that differs accuses no rail)
        HostSnapshot s = rails("h100-storage-cx7-on-root");
        RailTable t = RailTable.of(s);
        assertEquals(List.of("mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"),
                t.rails().stream().map(Rail::nic).toList());
        t.rails().forEach(r -> assertEquals(PathType.PIX, r.distance(), r.label()));
        assertEquals(List.of("mlx5_1:1", "mlx5_2:1", "mlx5_7:1", "mlx5_8:1"),
                t.otherPorts().stream().map(NicPort::name).toList());
        assertEquals(List.of(), HostFixturesTest.judge(s).findings().stream()
                .filter(f -> f.ruleId().startsWith("RAIL-") || f.ruleId().startsWith("IB-PORT")).toList());
    }

    @Test
    void sriovVirtualFunctionsJoinTheirNicWhenUpAndAreNoRailsFaultWhenIdle() {
        HostSnapshot s = rails("h100-sriov-vfs");
        RailTable t = RailTable.of(s);
        // NCCL merges an ACTIVE VF into its physical function's NIC (NCCL_IB_MERGE_VFS=1: the same PCI device) and
        // skips the VF whose vport the subnet manager left in INIT; neither moves a GPU off its own ConnectX-7
        assertEquals(List.of("mlx5_0+mlx5_12", "mlx5_3+mlx5_14", "mlx5_4+mlx5_16", "mlx5_5+mlx5_18", "mlx5_6+mlx5_20",
                "mlx5_9+mlx5_22", "mlx5_10+mlx5_24", "mlx5_11+mlx5_26"), t.rails().stream().map(Rail::nic).toList());
        t.rails().forEach(r -> assertEquals(PathType.PIX, r.distance(), r.label()));
        List<String> idle = t.otherPorts().stream().map(NicPort::name).filter(n -> !n.matches("mlx5_[1278]:1")).toList();
        assertEquals(List.of("mlx5_13:1", "mlx5_15:1", "mlx5_17:1", "mlx5_19:1", "mlx5_21:1", "mlx5_23:1", "mlx5_25:1",
                "mlx5_27:1"), idle);
        // nothing says an idle VF is a fault: only the uncabled storage ports, as on the host without VFs
        List<String> ports = HostFixturesTest.judge(s).findings().stream().filter(f -> f.ruleId().equals("IB-PORT-NOT-ACTIVE"))
                .map(Finding::title).toList();
        assertEquals(2, ports.size(), ports.toString());
        ports.forEach(title -> assertTrue(title.startsWith("mlx5_2 ") || title.startsWith("mlx5_8 "), title));
        // the flag comes from the physfn link; the same VFs without it would be ports of their own
        assertEquals("0000:1a:00.0", s.pci().function("0000:1a:00.1").orElseThrow().physfn());
    }

    @Test
    void aPortAt2xBesideItsVirtualFunctionsIsStillNamedAloneInTheCaptureForm() {
        HostSnapshot s = rails("h100-sriov-vfs-port-2x");
        RailTable t = RailTable.of(s);
        assertEquals(allOkBut(8, 3, "trained down"), verdicts(t));
        List<Finding> f = railFindings(s);
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).title().startsWith("rail 3 (GPU 0000:5d:00.0): mlx5_5:1: 200 Gb/sec (2X NDR), siblings"
                + " 400 Gb/sec (4X NDR)"), f.get(0).title());
    }

    @Test
    void bothFormsOfATreeGiveTheSameTable() {
        RailTable links = RailTable.of(rails("h100-8x8-healthy"));
        RailTable capture = RailTable.of(rails("h100-8x8-healthy-capture"));
        assertEquals(links, capture);
    }

    @Test
    void aPortAt2xNamesItsRailAndBothRates() {
        HostSnapshot s = rails("h100-port-2x");
        RailTable t = RailTable.of(s);
        assertEquals(allOkBut(8, 3, "trained down"), verdicts(t));
        List<Finding> f = railFindings(s);
        assertEquals(1, f.size(), f.toString());
        assertEquals("RAIL-TRAINED-DOWN", f.get(0).ruleId());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertEquals("rail 3 (GPU 0000:5d:00.0): mlx5_5:1: 200 Gb/sec (2X NDR), siblings 400 Gb/sec (4X NDR) (7 other"
                + " ports): this rail caps every collective at about half", f.get(0).title());
        assertTrue(f.get(0).remedy().get(1).startsWith("mlxlink -d mlx5_5 -m"), f.get(0).remedy().toString());
        assertTrue(f.get(0).evidence().contains("/sys/class/infiniband/mlx5_5/ports/1/rate: 200 Gb/sec (2X NDR)"));
    }

    @Test
    void aPortAtHdrAmongNdrIsTrainedDownTooAndTheCatalogSaysItsLineRate() {
        HostSnapshot s = rails("h100-port-hdr");
        Rail r3 = RailTable.of(s).rails().get(3);
        assertEquals(RailVerdict.TRAINED_DOWN, r3.verdict());
        // the site declared its NDR fabric: the rail is judged against that as well, both numbers said
        HostSnapshot declared = s.withSiteLinks(List.of(new dev.ncclbench.doctor.snapshot.SiteLink("mlx5_*", "ib-ndr", 400,
                "fabric-catalog.txt:40")));
        String why = RailTable.of(declared).rails().get(3).problems().get(0).why();
        assertTrue(why.contains("siblings 400 Gb/sec (4X NDR)") && why.contains("the fabric declared ib-ndr (400 Gbit/s,"
                + " fabric-catalog.txt:40)"), why);
    }

    @Test
    void aSiteThatDeclaresTheFabricCatchesAHostWhoseRailsAllTrainedDown() {
        // every port at HDR: no sibling runs faster, so only the catalog can tell
        HostSnapshot s = rails("h100-8x8-healthy");
        assertEquals(List.of(), railFindings(s.withSiteLinks(List.of(new dev.ncclbench.doctor.snapshot.SiteLink("mlx5_*",
                "ib-ndr", 400, "fabric-catalog.txt:40")))));
        List<Finding> f = railFindings(s.withSiteLinks(List.of(new dev.ncclbench.doctor.snapshot.SiteLink("mlx5_*",
                "ib-xdr", 800, "fabric-catalog.txt:41"))));
        assertEquals(8, f.size(), f.toString());
        assertTrue(f.get(0).title().contains("the fabric declared ib-xdr (800 Gbit/s"), f.get(0).title());
    }

    @Test
    void anEthernetPortAmongInfiniBandIsTheWrongLinkLayer() {
        HostSnapshot s = rails("h100-port-ethernet");
        assertEquals(allOkBut(8, 5, "wrong link layer"), verdicts(RailTable.of(s)));
        Finding f = railFindings(s).get(0);
        assertEquals("RAIL-LINK-LAYER", f.ruleId());
        assertTrue(f.title().startsWith("rail 5 (GPU 0000:bb:00.0): mlx5_9:1 runs Ethernet (RoCE) while 7 of the 8 active"
                + " rail ports run InfiniBand"), f.title());
        assertTrue(f.remedy().contains("mlxconfig -d 0000:bc:00.0 set LINK_TYPE_P1=1   # then reboot (or mlxfwreset) and"
                + " re-run doctor"), f.remedy().toString());
    }

    @Test
    void portsDownArePolledOrDisabledAndNcclMovesTheirGpusOntoNeighbours() {
        HostSnapshot s = rails("h100-ports-down");
        RailTable t = RailTable.of(s);
        assertEquals(allOkBut(8, 2, "down", 6, "down"), verdicts(t));
        Rail r2 = t.rails().get(2);
        assertEquals("mlx5_4", r2.nic());
        assertEquals(List.of("mlx5_0", "mlx5_3", "mlx5_5"), r2.ncclUses());
        assertEquals(PathType.PHB, r2.ncclDistance());
        List<Finding> f = railFindings(s);
        assertEquals(List.of("RAIL-PORT-DOWN", "RAIL-PORT-DOWN"), f.stream().map(Finding::ruleId).toList());
        assertTrue(f.get(0).title().contains("mlx5_4:1 is DOWN / Polling"), f.get(0).title());
        assertTrue(f.get(1).title().contains("mlx5_10:1 is DOWN / Disabled"), f.get(1).title());
        // a rail's port is said once, by the rail rule, not again as a bare port
        assertTrue(HostFixturesTest.judge(s).findings().stream().noneMatch(x -> x.ruleId().equals("IB-PORT-NOT-ACTIVE")
                && (x.title().contains("mlx5_4 ") || x.title().contains("mlx5_10 "))));
    }

    @Test
    void aNicAcrossTheSocketIsSys() {
        HostSnapshot s = rails("pcie-nic-across-socket");
        RailTable t = RailTable.of(s);
        assertEquals(Map.of(0, "ok", 1, "ok", 2, "no NIC near", 3, "no NIC near"), verdicts(t));
        assertEquals(PathType.PHB, t.rails().get(0).distance());
        assertEquals(PathType.SYS, t.rails().get(2).distance());
        List<Finding> f = railFindings(s);
        assertEquals(2, f.size(), f.toString());
        assertEquals(Severity.WARNING, f.get(0).severity());
        assertTrue(f.get(0).title().contains("SYS: GPU on NUMA node 1, NIC on 0"), f.get(0).title());
    }

    @Test
    void aNicMissingFromTheBusLeavesItsGpuWithoutOne() {
        HostSnapshot s = rails("h100-nic-missing");
        RailTable t = RailTable.of(s);
        assertEquals(allOkBut(8, 7, "no NIC near"), verdicts(t));
        assertEquals("mlx5_6, mlx5_9, mlx5_10", t.rails().get(7).nic());
        assertTrue(railFindings(s).get(0).title().contains("no NIC of its own"), railFindings(s).toString());
    }

    @Test
    void aNicSeatedOnTheOtherSocketIsNamedAsTheLikelyOne() {
        HostSnapshot s = rails("h100-nic-other-socket");
        RailTable t = RailTable.of(s);
        assertEquals(allOkBut(8, 7, "no NIC near"), verdicts(t));
        assertTrue(t.otherPorts().stream().anyMatch(p -> p.name().equals("mlx5_11:1")), t.otherPorts().toString());
        String why = t.rails().get(7).problems().get(0).why();
        assertTrue(why.contains("mlx5_11:1, of the same model, is no GPU's rail"), why);
    }

    @Test
    void aGpuWhosePciPathIsUnknownIsNeverCalledFar() {
        // a snapshot from before the rail table: GPUs from /proc/driver/nvidia without a path, no PCI attributes
        HostSnapshot s = rails("h100-8x8-healthy");
        Nvidia n = s.nvidia();
        HostSnapshot old = s.toBuilder()
                .nvidia(new Nvidia(n.driverVersion(), n.openKernelModule(), n.peerMem(), n.peerMemEvidence(),
                        n.gpus().stream().map(g -> new Nvidia.Gpu(g.busId(), g.model(), null)).toList()))
                .pci(null).build();
        RailTable t = RailTable.of(old);
        assertEquals(8, t.rails().size());
        t.rails().forEach(r -> assertEquals(null, r.distance(), r.label()));
        assertEquals(List.of(), railFindings(old));
        assertTrue(t.notes().stream().anyMatch(x -> x.startsWith("no PCI attributes in the evidence")), t.notes().toString());
    }

    @Test
    void gpusWithNoNicAtAllAreSaidNotCrashed() {
        HostSnapshot s = rails("gpus-no-nic");
        RailTable t = RailTable.of(s);
        assertEquals(NicPort.SOCKET, t.transport());
        assertEquals(Map.of(0, "no NIC near", 1, "no NIC near"), verdicts(t));
        assertEquals("NVIDIA RTX 6000 Ada Generation", t.rails().get(0).gpu().model(), "a VGA-class GPU counts");
        assertTrue(t.notes().stream().anyMatch(n -> n.startsWith("no RDMA NIC")), t.notes().toString());
        List<Finding> f = railFindings(s);
        assertTrue(f.stream().allMatch(x -> x.severity() == Severity.INFO), f.toString());
    }

    @Test
    void ibHcaLeavingOutOneRailsNicSaysSoAndTheValueThatKeepsIt() {
        HostSnapshot s = withEnv(rails("h100-8x8-healthy"), "NCCL_IB_HCA", "=mlx5_0,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_9,mlx5_10");
        RailTable t = RailTable.of(s);
        assertEquals(allOkBut(8, 7, "excluded"), verdicts(t));
        Rail r7 = t.rails().get(7);
        assertEquals(List.of("mlx5_11:1"), r7.excluded().stream().map(NicPort::name).toList());
        assertEquals(PathType.PHB, r7.distance());
        Finding f = railFindings(s).get(0);
        assertEquals("RAIL-EXCLUDED", f.ruleId());
        assertEquals("export NCCL_IB_HCA==mlx5_0,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_9,mlx5_10,mlx5_11:1", f.remedy().get(0));
        // the prefix trap: "mlx5_1" keeps mlx5_10 and mlx5_11 too, so nothing is left out
        assertEquals(allOk(8), verdicts(RailTable.of(withEnv(rails("h100-8x8-healthy"), "NCCL_IB_HCA",
                "mlx5_0,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_9,mlx5_1"))));
        // excluding: "^mlx5_11,mlx5_1:1" drops mlx5_11 and, by prefix, mlx5_10 (and the storage mlx5_1): each fix
        // removes the entries that drop that rail's NIC
        List<Finding> caret = railFindings(withEnv(rails("h100-8x8-healthy"), "NCCL_IB_HCA", "^mlx5_11,mlx5_1:1"));
        assertEquals(List.of("RAIL-EXCLUDED", "RAIL-EXCLUDED"), caret.stream().map(Finding::ruleId).toList());
        assertTrue(caret.get(0).title().startsWith("rail 6 (GPU 0000:cb:00.0): NCCL_IB_HCA=^mlx5_11,mlx5_1:1 (environment)"
                + " leaves out mlx5_10:1, this GPU's nearest (PIX)"), caret.get(0).title());
        assertEquals("export NCCL_IB_HCA=^mlx5_11", caret.get(0).remedy().get(0));
        assertEquals("unset NCCL_IB_HCA   # let NCCL use every port", caret.get(1).remedy().get(0));
        // dropping only the storage NICs, which are no GPU's rail, accuses nothing
        assertEquals(allOk(8), verdicts(RailTable.of(withEnv(rails("h100-8x8-healthy"), "NCCL_IB_HCA",
                "^=mlx5_1,mlx5_2,mlx5_7,mlx5_8"))));
    }

    @Test
    void aRoceHostWithTwoGpusPerBondIsHealthyAndFlattensBroadcomGen4Switches() {
        RailTable t = RailTable.of(rails("a800-roce-2gpu-per-nic"));
        assertEquals(List.of("mlx5_bond_1", "mlx5_bond_1", "mlx5_bond_2", "mlx5_bond_2", "mlx5_bond_3", "mlx5_bond_3",
                "mlx5_bond_4", "mlx5_bond_4"), t.rails().stream().map(Rail::nic).toList());
        t.rails().forEach(r -> assertEquals(PathType.PXB, r.distance(), r.label()));
        t.rails().forEach(r -> assertEquals("Ethernet", r.ports().get(0).linkLayer()));
        assertEquals(List.of(1), t.rails().get(0).sharedWith());
        assertEquals(List.of("mlx5_bond_0:1"), t.otherPorts().stream().map(NicPort::name).toList());
    }

    @Test
    void twoGpusPerSwitchGetTheirOwnNicEach() {
        RailTable t = RailTable.of(rails("h100-pcie-2gpu-per-switch"));
        // NCCL mirrors the GPU's index within the switch onto its two NICs: GPU 4 -> first, GPU 5 -> second
        assertEquals(List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7"),
                t.rails().stream().map(Rail::nic).toList());
        t.rails().forEach(r -> assertTrue(r.sharedWith().isEmpty(), r.label()));
    }

    @Test
    void aSocketsOnlyNodeJudgesItsInterfacesAndNcclSocketIfname() {
        HostSnapshot s = rails("socket-only-10gbe");
        RailTable t = RailTable.of(s);
        assertEquals(NicPort.SOCKET, t.transport());
        assertEquals(List.of("ens1f0", "ens1f1", "ens2f0", "ens2f1"), t.rails().stream().map(Rail::nic).toList());
        HostSnapshot pinned = withEnv(s, "NCCL_SOCKET_IFNAME", "ens1");
        assertEquals(allOkBut(4, 2, "excluded", 3, "excluded"), verdicts(RailTable.of(pinned)));
        Finding f = railFindings(pinned).get(0);
        assertEquals("RAIL-EXCLUDED", f.ruleId());
        assertEquals("export NCCL_SOCKET_IFNAME=ens1,ens2f0", f.remedy().get(0));
    }

    @Test
    void aSavedSnapshotKeepsTheRailTable(@TempDir Path dir) {
        HostSnapshot s = rails("h100-port-2x");
        Path file = dir.resolve("host.json");
        SnapshotJson.save(s, file);
        assertEquals(RailTable.of(s), RailTable.of(SnapshotJson.load(file)));
    }
}
