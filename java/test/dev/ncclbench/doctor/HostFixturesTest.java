package dev.ncclbench.doctor;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.doctor.predict.RailTable;
import dev.ncclbench.doctor.snapshot.HostCollector;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.SnapshotJson;
import dev.ncclbench.env.Host;
import dev.ncclbench.finding.FailOn;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The seed hosts as capture trees (java/test-resources/doctor/hosts, made by make-fixtures.py): each gives its findings. */
class HostFixturesTest {
    static final Path HOSTS = Path.of(System.getProperty("ncclbench.basedir", "."), "java", "test-resources", "doctor", "hosts");
    private static final DoctorOptions OPTIONS = new DoctorOptions(Host.of(Map.of()), null, null, false, null, Set.of(), FailOn.ERROR);

    static HostSnapshot host(String name) {
        return HostCollector.capture(HOSTS.resolve(name));
    }

    static DoctorReport judge(HostSnapshot s) {
        return Doctor.judge(s, OPTIONS);
    }

    private static List<String> ids(DoctorReport r) {
        return r.findings().stream().map(Finding::ruleId).toList();
    }

    private static Finding only(DoctorReport r, String id) {
        return r.finding(id).orElseThrow(() -> new AssertionError(id + " not in " + ids(r)));
    }

    private static HostSnapshot withEnv(HostSnapshot s, String... kv) {
        Map<String, String> env = new HashMap<>(s.env());
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        return s.withEnv(env);
    }

    @Test
    void theCaseStudyNodeNamesEth0AndRecommendsRdma0() {
        HostSnapshot s = host("a100-two-nic");
        assertEquals(List.of("lo", "eth0", "rdma0"), s.interfaces().stream().map(l -> l.name()).toList(), "kernel order");
        DoctorReport r = judge(s);
        assertEquals("eth0", r.bootstrap().iface());
        assertEquals("10.0.0.1", r.bootstrap().address());
        Finding f = only(r, "SOCKET-DEFAULT-SLOW-NIC");
        assertTrue(f.title().contains("eth0") && f.title().contains("NCCL_SOCKET_IFNAME=rdma0"), f.title());
        assertTrue(f.detail().contains("not named ib"), f.detail());
        assertEquals("export NCCL_SOCKET_IFNAME=rdma0", f.remedy().get(0));
        // mlx5_0 is healthy, so IB carries the data: worth a look, not a stop
        assertEquals(Severity.WARNING, f.severity());
        assertFalse(r.failed(), ids(r).toString());
        assertEquals(List.of("SOCKET-DEFAULT-SLOW-NIC"), ids(r).stream().filter(id -> !id.equals("RDMA-NONE")).toList());
    }

    @Test
    void withoutUsableIbTheSlowDefaultIsAnErrorAndTheFixSilencesIt() {
        HostSnapshot s = withEnv(host("a100-two-nic"), "NCCL_IB_DISABLE", "1");
        DoctorReport r = judge(s);
        assertEquals(Severity.ERROR, only(r, "SOCKET-DEFAULT-SLOW-NIC").severity());
        assertTrue(only(r, "SOCKET-DEFAULT-SLOW-NIC").detail().contains("capped near 10 Gbit/s"));
        DoctorReport fixed = judge(withEnv(s, "NCCL_SOCKET_IFNAME", "rdma0"));
        assertTrue(fixed.finding("SOCKET-DEFAULT-SLOW-NIC").isEmpty());
        assertEquals("rdma0", fixed.bootstrap().iface());
        Finding slow = only(judge(withEnv(s, "NCCL_SOCKET_IFNAME", "=eth0")), "SOCKET-IFNAME-SLOW");
        assertTrue(slow.title().contains("slower than rdma0"), slow.title());
    }

    @Test
    void theLessonNodeIsCleanUntilTheIfnameMatchesNothing() {
        HostSnapshot s = host("two-gpu-eth0-only");
        DoctorReport r = judge(s);
        assertFalse(r.failed(), ids(r).toString());
        assertEquals(Severity.INFO, only(r, "RDMA-NONE").severity());
        assertEquals(2, s.nvidia().gpus().size());
        DoctorReport bad = judge(withEnv(s, "NCCL_SOCKET_IFNAME", "doesnotexist0"));
        assertTrue(bad.failed());
        Finding f = only(bad, "SOCKET-IFNAME-NO-MATCH");
        assertTrue(f.title().contains("NCCL_SOCKET_IFNAME=doesnotexist0") && f.title().contains("(lo, eth0)")
                && f.title().contains("NCCL_SOCKET_IFNAME=eth0 would work"), f.title());
        assertEquals(null, bad.bootstrap().iface());
        Finding lo = only(judge(withEnv(s, "NCCL_SOCKET_IFNAME", "^=eth0")), "SOCKET-LOOPBACK-ONLY");
        assertEquals(Severity.ERROR, lo.severity());
        assertTrue(lo.title().contains("127.0.0.1"), lo.title());
    }

    @Test
    void theContainerLacksDevicesShmAndMemlock() {
        HostSnapshot s = host("container-no-devices");
        assertTrue(s.container().inContainer());
        DoctorReport r = judge(s);
        assertTrue(r.failed());
        assertEquals(Severity.ERROR, only(r, "RDMA-NO-DEVICE-ACCESS").severity());
        assertTrue(only(r, "RDMA-NO-DEVICE-ACCESS").remedy().get(0).contains("--device=/dev/infiniband"));
        assertTrue(only(r, "SHM-SMALL").title().contains("64 MiB"), only(r, "SHM-SMALL").title());
        assertEquals(Severity.ERROR, only(r, "MEMLOCK-LIMITED").severity());
    }

    @Test
    void acsRedirectAndNoPeerMemory() {
        DoctorReport r = judge(host("acs-no-peermem"));
        Finding acs = only(r, "ACS-REDIRECT");
        assertTrue(acs.evidence().get(0).contains("18:00.0") && acs.evidence().get(0).contains("ReqRedir+"), acs.evidence().toString());
        assertEquals(1, acs.evidence().size(), "ACSCap lines and a bridge with ACSCtl all off do not count");
        Finding gdr = only(r, "GDR-NO-PEER-MEMORY");
        assertTrue(gdr.title().contains("proprietary") && gdr.title().contains("5.12"), gdr.title());
    }

    @Test
    void theLaptopCopiedIbDisableIsFoundInTheUsersConfFile() {
        DoctorReport r = judge(host("laptop-ib-disable"));
        Finding f = only(r, "IB-DISABLED");
        assertEquals(Severity.ERROR, f.severity());
        assertTrue(f.title().contains("/home/alice/.nccl.conf"), f.title());
        assertTrue(f.remedy().get(0).contains("remove the NCCL_IB_DISABLE line"), f.remedy().toString());
        // the process environment wins over the file, as NCCL's setenv(..., 0) makes it
        HostSnapshot over = withEnv(host("laptop-ib-disable"), "NCCL_IB_DISABLE", "0");
        assertTrue(judge(over).finding("IB-DISABLED").isEmpty());
        assertEquals(Severity.WARNING, only(r, "P2P-DISABLED").severity());
    }

    @Test
    void ibHcaFollowsNcclsPrefixCaretAndEqualsSemantics() {
        HostSnapshot s = host("a100-two-nic");
        for (String ok : List.of("mlx5", "mlx5_0", "mlx5_0:1", "=mlx5_0", "^mlx5_1", "^=mlx5")) {
            assertTrue(judge(withEnv(s, "NCCL_IB_HCA", ok)).finding("IB-HCA-NO-MATCH").isEmpty(), ok);
        }
        for (String bad : List.of("mlx5_1", "=mlx5", "mlx5_0:2", "^mlx5", "^=mlx5_0", "bnxt_re0")) {
            assertEquals(Severity.ERROR, only(judge(withEnv(s, "NCCL_IB_HCA", bad)), "IB-HCA-NO-MATCH").severity(), bad);
        }
    }

    @Test
    void envSwitchesThatOnlyCountAsNcclReadsThem() {
        HostSnapshot s = host("a100-two-nic");
        assertEquals(Severity.ERROR, only(judge(withEnv(s, "NCCL_NET", "Socket")), "NET-FORCED-SOCKET").severity());
        assertEquals(Severity.INFO, only(judge(withEnv(s, "NCCL_SHM_DISABLE", "2")), "SHM-DISABLED").severity());
        assertEquals(Severity.WARNING, only(judge(withEnv(s, "NCCL_SHM_DISABLE", "1")), "SHM-DISABLED").severity());
        assertTrue(judge(withEnv(s, "NCCL_IB_DISABLE", "0")).finding("IB-DISABLED").isEmpty());
        // GPU 0 shares a switch with mlx5_0 (PIX); the others sit on another root complex of the same CPU: PHB in NCCL's
        // topology (SYS is across sockets, and no NUMA node says these differ)
        assertTrue(judge(withEnv(s, "NCCL_NET_GDR_LEVEL", "SYS")).finding("GDR-LEVEL-TOO-STRICT").isEmpty());
        Finding pix = only(judge(withEnv(s, "NCCL_NET_GDR_LEVEL", "PIX")), "GDR-LEVEL-TOO-STRICT");
        assertTrue(pix.title().contains("3 GPU(s)") && pix.title().contains("PHB"), pix.title());
        Finding loc = only(judge(withEnv(s, "NCCL_NET_GDR_LEVEL", "0")), "GDR-LEVEL-TOO-STRICT");
        assertTrue(loc.title().contains("4 GPU(s)"), loc.title());
    }

    @Test
    void aSnapshotRoundTripsAndIsJudgedTheSame(@TempDir Path dir) {
        HostSnapshot s = host("container-no-devices");
        Path file = dir.resolve("host.json");
        SnapshotJson.save(s, file);
        HostSnapshot back = SnapshotJson.load(file);
        assertEquals(s, back);
        assertEquals(judge(s).findings(), judge(back).findings());
    }

    @Test
    void corruptSnapshotsAndTreesAreUsageErrors(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"kind\": \"ncclbench.host\", \"interfaces\": [{]");
        NcclbenchException e = assertThrows(NcclbenchException.class, () -> SnapshotJson.load(bad));
        assertEquals(2, e.exitCode().code);
        assertTrue(e.getMessage().startsWith("corrupt snapshot " + bad), e.getMessage());
        Files.writeString(bad, "{\"schema\": \"something/9\"}");
        assertTrue(assertThrows(NcclbenchException.class, () -> SnapshotJson.load(bad)).getMessage().contains("schema"));
        assertEquals(2, assertThrows(NcclbenchException.class, () -> HostCollector.capture(dir)).exitCode().code);
        Path tree = dir.resolve("tree");
        Files.createDirectories(tree.resolve("sys/class/net"));
        Files.createDirectories(tree.resolve("ncclbench"));
        Files.writeString(tree.resolve("ncclbench/ip-addr.json"), "not json");
        NcclbenchException t = assertThrows(NcclbenchException.class, () -> HostCollector.capture(tree));
        assertTrue(t.getMessage().startsWith("corrupt capture:"), t.getMessage());
    }

    @Test
    void aCollectorThatCannotReadIsAFindingNotAPass(@TempDir Path dir) throws Exception {
        Path tree = dir.resolve("tree");
        Files.createDirectories(tree.resolve("sys/class/net"));
        DoctorReport r = judge(HostCollector.capture(tree));
        List<String> missing = r.findings().stream().filter(f -> f.ruleId().equals("EVIDENCE-MISSING")).map(Finding::title).toList();
        assertTrue(missing.stream().anyMatch(t -> t.contains("ip -j addr")), missing.toString());
        assertTrue(missing.stream().anyMatch(t -> t.contains("lspci")), missing.toString());
        assertTrue(missing.stream().anyMatch(t -> t.contains("memlock")), missing.toString());
    }

    @Test
    void roceWithoutGidsAndAPollingPort() {
        HostSnapshot s = host("roce-gid-port-down");
        DoctorReport r = judge(s);
        Finding gid = only(r, "ROCE-NO-GID");
        assertTrue(gid.title().contains("mlx5_0:1") && gid.title().contains("empty GID table"), gid.title());
        // mlx5_0 and mlx5_1 are the two functions of one card on the GPU's switch: NCCL merges them into one NIC, the
        // GPU's rail, which runs on one port of two
        Finding port = only(r, "RAIL-PORT-DOWN");
        assertTrue(port.title().contains("mlx5_1:1 is DOWN / Polling"), port.title());
        assertEquals("mlx5_0+mlx5_1", RailTable.of(s).rails().get(0).nic());
        assertTrue(r.finding("IB-PORT-NOT-ACTIVE").isEmpty(), "said once, with its rail");
        Finding forced = only(judge(withEnv(s, "NCCL_IB_GID_INDEX", "3")), "ROCE-NO-GID");
        assertTrue(forced.title().startsWith("NCCL_IB_GID_INDEX=3 is an empty GID slot"), forced.title());
    }

    @Test
    void aProbeThatChoseAnotherInterfaceIsAFinding() {
        HostSnapshot s = host("a100-two-nic").withProbe(new dev.ncclbench.doctor.snapshot.NcclProbeResult("/x/libnccl.so.2", "2.18.5", 0,
                "ncclSuccess", "rdma0", "192.168.100.1<0>", List.of(), null));
        Finding f = only(judge(s), "PROBE-DISAGREES");
        assertTrue(f.title().contains("bootstraps on rdma0, doctor predicted eth0"), f.title());
        HostSnapshot agrees = host("a100-two-nic").withProbe(new dev.ncclbench.doctor.snapshot.NcclProbeResult("/x/libnccl.so.2", "2.18.5", 0,
                "ncclSuccess", "eth0", "10.0.0.1<0>", List.of(), null));
        assertTrue(judge(agrees).finding("PROBE-DISAGREES").isEmpty());
        assertTrue(judge(agrees).probe().agrees());
    }

    @Test
    void compareFindsVersionsAndInterfacesThatDiffer() {
        dev.ncclbench.doctor.compare.HostSet fleet = new dev.ncclbench.doctor.compare.HostSet(
                List.of(host("a100-two-nic"), host("two-gpu-eth0-only")));
        List<Finding> f = dev.ncclbench.doctor.compare.CompareRules.book().run(fleet, Set.of());
        List<String> titles = f.stream().map(Finding::title).toList();
        assertTrue(titles.stream().anyMatch(t -> t.startsWith("NCCL differs between nodes (gpu-node-0: 2.18.5; ml-node-07: 2.27.3)")), titles.toString());
        assertTrue(titles.stream().anyMatch(t -> t.startsWith("NVIDIA driver differs")), titles.toString());
        assertTrue(titles.stream().anyMatch(t -> t.equals("the nodes have different running interfaces")), titles.toString());
        assertTrue(titles.stream().anyMatch(t -> t.startsWith("eth0 runs at different rates")), titles.toString());
        assertTrue(dev.ncclbench.doctor.compare.CompareRules.book().run(
                new dev.ncclbench.doctor.compare.HostSet(List.of(host("a100-two-nic"), host("a100-two-nic"))), Set.of()).isEmpty());
    }
}
