package dev.ncclbench.nccllog;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each line family's parser on single lines, straight into an accumulator: what one line of NCCL's yields. */
class LineFamiliesTest {
    private final Accumulator acc = new Accumulator(16);

    private static LineParser.Parsed parsed(String line) {
        LineParser.Parsed p = new LineParser.Parsed();
        LineParser.parse(line, p);
        return p;
    }

    private NcclLogEvidence evidence() {
        return acc.build();
    }

    @Test
    void connections() {
        assertTrue(ConnectionLines.parse(parsed("h:1:2 [0] NCCL INFO Channel 03/1 : 0[0] -> 8[0] [send] via"
                + " NET/IB/1(3)/GDRDMA(PCI)/Shared"), "f", 7, acc));
        var c = evidence().connections().get(0);
        assertEquals(List.of(0, 8, 1, 3), List.of(c.fromRank(), c.toRank(), c.netDev(), c.proxyRank()));
        assertEquals(Direction.SEND, c.direction());
        assertTrue(c.gdr() && c.shared());
        assertEquals("IB", c.netName());
        assertEquals("f:7", c.firstSeen().toString());
        assertFalse(ConnectionLines.parse(parsed("h:1:2 [0] NCCL INFO Channel 00/02 :    0   1"), "f", 8, acc));
    }

    @Test
    void netDevicesWithLinkLayerAndTheOobInterface() {
        assertTrue(NetLines.parse(parsed("h:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO];"
                + " OOB eth0:10.0.0.1<0>"), "f", 1, acc));
        var e = evidence();
        assertEquals(List.of("mlx5_0:IB", "mlx5_1:RoCE"), e.netDevices().stream()
                .map(d -> d.name() + ":" + d.linkLayer()).toList());
        assertEquals("oob:eth0", e.bootstrap().get(0).name());
    }

    @Test
    void theOldestNetDeviceFormat() {
        assertTrue(NetLines.parse(parsed("h:1:2 [0] NCCL INFO NET/IB: [0] mlx5_1:1/IB"), "f", 1, acc));
        assertEquals(0, evidence().netDevices().get(0).index());
    }

    @Test
    void gdrPerHca() {
        assertTrue(NetLines.parse(parsed("h:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'"),
                "f", 1, acc));
        var g = evidence().gdr().get(0);
        assertEquals(List.of("IB", "mlx5_0"), List.of(g.network(), g.hcaName()));
        assertFalse(g.enabled());
    }

    @Test
    void noDeviceAndSocketInterfaces() {
        assertTrue(NetLines.parse(parsed("h:1:2 [0] NCCL INFO NET/IB : No device found."), "f", 1, acc));
        assertTrue(NetLines.parse(parsed("h:1:2 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>"
                + " [1]docker0:172.17.0.1<0>"), "f", 2, acc));
        var e = evidence();
        assertEquals("IB", e.noNetDevice().get(0).value());
        assertEquals(List.of("eth0", "docker0"), e.socketIfaces().stream().map(NcclLogEvidence.Interface::name)
                .toList());
    }

    @Test
    void interfaceListsOfEveryEra() {
        assertEquals(List.of("eth0=10.0.0.1<0>", "eth1=10.1.0.1<0>"), InterfaceLists.parse(
                "[0]eth0:10.0.0.1<0> [1]eth1:10.1.0.1<0>", "h", "", null).stream()
                .map(i -> i.name() + "=" + i.address()).toList());
        for (String line : List.of("h:1:1 [0] NCCL INFO Bootstrap : Using [0]eth0:10.0.0.1<0>",
                "h:1:1 [0] NCCL INFO Bootstrap : Using ib0:10.0.0.1<0>",
                "vm:5376:5376 [0] NCCL INFO Bootstrap: Using eth0:192.0.2.2<0>")) {
            Accumulator a = new Accumulator(4);
            assertTrue(InterfaceLists.bootstrap(parsed(line), "f", 1, a), line);
            assertEquals(1, a.build().bootstrap().size(), line);
        }
        assertFalse(InterfaceLists.bootstrap(parsed("h:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>"),
                "f", 1, acc));
    }

    @Test
    void initLinesAndVersions() {
        assertTrue(InitLines.init(parsed("h:9:9 [3] NCCL INFO comm 0x5 rank 3 nranks 8 cudaDev 3 nvmlDev 3 busId"
                + " 5d000 commId 0x1 - Init COMPLETE"), "f", 1, acc));
        assertTrue(InitLines.version(parsed("NCCL version 2.18.5+cuda12.2"), "f", 2, acc));
        assertTrue(InitLines.driver(parsed("h:9:9 [3] NCCL INFO cudaDriverVersion 12020"), "f", 3, acc));
        assertTrue(InitLines.version(parsed("RuntimeError: ... unhandled system error, NCCL version 2.14.3."), "f", 4,
                acc));
        var e = evidence();
        var r = e.ranks().get(0);
        assertEquals(List.of(3, 8, 3), List.of(r.rank(), r.nranks(), r.cudaDev()));
        assertTrue(r.initComplete() && acc.initDone("h", 9));
        assertEquals(List.of("2.18.5", "2.14.3"), e.ncclVersions().stream().map(NcclLogEvidence.Versioned::version)
                .toList());
        assertEquals(List.of("12.2", "driver 12.2"), e.cudaVersions().stream()
                .map(NcclLogEvidence.Versioned::version).toList());
    }

    @Test
    void warnWithTimestampAndFunctionThenItsContinuation() {
        var w = WarnLines.warn(parsed("[2026-11-29 11:31:14] vm:5378:5378 [0] bootstrap.cc:126 (bootstrapNetInit)"
                + " NCCL WARN Bootstrap : no socket interface found"), "f", 1, acc);
        assertTrue(WarnLines.continuation(w, "  (NCCL_SOCKET_IFNAME=doesnotexist0)", 2, acc));
        var got = evidence().warnings().get(0);
        assertEquals(List.of("bootstrap.cc", "126", "bootstrapNetInit"), List.of(got.ncclFile(),
                String.valueOf(got.ncclLine()), got.function()));
        assertEquals("Bootstrap : no socket interface found (NCCL_SOCKET_IFNAME=doesnotexist0)", got.message());
        assertFalse(WarnLines.continuation(null, "x", 0, acc));
    }

    @Test
    void errorLinesTheApplicationPrints() {
        assertTrue(WarnLines.errorLine(parsed("RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1269, unhandled"
                + " system error"), "f", 1, acc));
        assertFalse(WarnLines.errorLine(parsed("NCCL version 2.18.5+cuda12.2"), "f", 2, acc));
        assertEquals("", evidence().warnings().get(0).ncclFile());
    }

    @Test
    void envFromNcclAndFromACommandLine() {
        assertTrue(EnvLines.setByEnvironment(parsed("h:1:1 [0] NCCL INFO NCCL_IB_HCA set by environment to"
                + " mlx5_0."), "f", 1, acc));
        assertTrue(EnvLines.commandLine("mpirun -x NCCL_SOCKET_IFNAME=\"eth0\" -x NCCL_API_KEY=abc ./a", "f", 2, acc));
        var e = evidence();
        assertEquals("mlx5_0", e.envValue("NCCL_IB_HCA").get().value());
        assertEquals("nccl", e.envValue("NCCL_IB_HCA").get().origin());
        assertEquals("eth0", e.envValue("NCCL_SOCKET_IFNAME").get().value());
        assertEquals("<redacted>", e.envValue("NCCL_API_KEY").get().value());
    }

    @Test
    void networksAndPlugins() {
        assertTrue(NetworkLines.parse(parsed("h:1:1 [0] NCCL INFO Using network IBext_v8"), "f", 1, acc));
        assertTrue(NetworkLines.parse(parsed("h:1:1 [0] NCCL INFO Failed to initialize NET plugin IB"), "f", 2, acc));
        assertTrue(NetworkLines.parse(parsed("h:1:1 [0] NCCL INFO Assigned NET plugin Socket to comm"), "f", 3, acc));
        assertEquals(List.of("network=IBext_v8", "plugin-failed=IB", "network=Socket"), evidence().networks()
                .stream().map(m -> m.kind() + "=" + m.value()).toList());
    }

    @Test
    void collnetLinesDoNotLandWithNvls() {
        assertTrue(CollectiveLines.parse(parsed("h:1:1 [0] NCCL INFO CollNet 00/0 : 0 [send] via COLLNET/IBext/0"),
                "f", 1, acc));
        assertTrue(CollectiveLines.parse(parsed("h:1:1 [0] NCCL INFO Connected NVLS tree"), "f", 2, acc));
        assertTrue(CollectiveLines.parse(parsed("h:1:1 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 1"),
                "f", 3, acc));
        var e = evidence();
        assertEquals(1, e.collnet().size());
        assertEquals(List.of("Connected NVLS tree"), e.nvls().stream().map(NcclLogEvidence.Mention::value).toList());
        assertEquals(1, e.rings().size());
    }

    @Test
    void ncclTestsRowsOfBothTableLayouts() {
        String now = "    33554432       8388608     float     sum      -1   1234.5   27.19   50.98      0   1230.1"
                + "   27.28   51.15      0";
        String old = "    33554432       8388608     float     sum   1234.5   27.19   50.98  0e+00   1230.1   27.28"
                + "   51.15  0e+00";
        assertTrue(TestsRows.parse(now, 4, "f", 1, acc));
        assertTrue(TestsRows.parse(old, 4, "f", 2, acc));
        assertFalse(TestsRows.parse("2026-11-29 12:00 started", 0, "f", 3, acc));
        assertEquals(List.of(51.15, 51.15), evidence().measured().stream()
                .map(NcclLogEvidence.MeasuredRow::busbwGBps).toList());
    }

    @Test
    void hostToolLines() {
        assertTrue(HostToolLines.parse("CA 'mlx5_0'", 0, "f", 1, acc));
        assertTrue(HostToolLines.parse("\t\tLink layer: Ethernet", 2, "f", 2, acc));
        assertTrue(HostToolLines.parse("hca_id:\tmlx5_1", 0, "f", 3, acc));
        assertEquals(List.of("ibstat-ca=mlx5_0", "link-layer=Ethernet", "ibv-device=mlx5_1"), evidence().hostRdma()
                .stream().map(m -> m.kind() + "=" + m.value()).toList());
    }

    @Test
    void theAccumulatorCapsEveryCollectionAndCountsTheRest() {
        Accumulator small = new Accumulator(2);
        for (int i = 0; i < 5; i++) {
            ConnectionLines.parse(parsed("h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> " + (i + 1) + "[0] via P2P/IPC"),
                    "f", i, small);
            small.env("NCCL_X" + i, "1", "nccl", "f", i);
        }
        NcclLogEvidence e = small.build();
        assertEquals(2, e.connections().size());
        assertEquals(2, e.env().size());
        assertEquals(6, e.counts().dropped());
    }
}
