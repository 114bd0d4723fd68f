package dev.ncclbench.nccllog;

import dev.ncclbench.NcclVersionCode;
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

    /**
     * "#" lines: a fixture's or a script's comment is never a WARN, an error or a setting; nccl-tests' own banner gives
     * the NCCL that ran (2.20's with its git hash), its device rows say which host each rank ran on, its footer a failure.
     */
    @Test
    void commentLinesAndNcclTestsOwnHashLines() {
        NcclLogEvidence e = NcclLogReader.readString(String.join("\n",
                "# host:1:2 [0] misc/socket.cc:483 NCCL WARN a comment quoting a WARN",
                "# the job failed with NCCL error in: somewhere, unhandled system error",
                "# export NCCL_IB_HCA=mlx5_0",
                "# nccl-tests version 2.20.0 (b4d5bee) nccl-headers=23102 nccl-library=23102",
                "#  Rank  0 Group  0 Pid  87 on node-a device  0 [0000:18:00] NVIDIA H100 80GB HBM3",
                "[1,1]<stdout>:#  Rank  1 Group  0 Pid  91 on node-b device  0 [0000:18:00] NVIDIA H100 80GB HBM3",
                "#   Rank  2 Pid    12 on node-c device  1 [0x1b] Tesla V100-SXM2-16GB",
                "# Out of bounds values : 3 FAILED", ""), "t");
        assertEquals(1, e.warnings().size(), e.warnings().toString());
        assertTrue(e.warnings().get(0).message().contains("Out of bounds values : 3 FAILED"));
        assertTrue(e.env().isEmpty(), e.env().toString());
        assertEquals(List.of("2.31.2"), e.ncclVersions().stream().map(NcclLogEvidence.Versioned::version).toList());
        assertEquals(List.of("0 node-a", "1 node-b", "2 node-c"), e.topology().stream()
                .filter(m -> m.kind().equals("tests-rank")).map(NcclLogEvidence.Mention::value).toList());
        assertEquals("2.19.6", NcclVersionCode.text(21906));
        assertEquals("2.7.8", NcclVersionCode.text(2708));
        assertEquals("2.28.9", NcclVersionCode.text(22809));
    }

    /** A timestamp glued to the host name (CloudWatch) is cut off; a host of digits and dashes stays whole. */
    @Test
    void gluedTimestampsAndNumericHostNames() {
        NcclLogEvidence e = NcclLogReader.readString(String.join("\n",
                "  | 2025-05-16T16:39:55.210-07:00ip-10-36-29-253:79:2547 [0] NCCL INFO NET/OFI Creating one domain",
                "  | 2025-05-16T16:39:55.215-07:00 | ip-10-36-29-253:82:2548 [0] NCCL INFO NET/IB : No device found.",
                "05-06-76-200:7839:7839 [0] NCCL INFO Bootstrap : Using ens5f0np0:10.220.178.201<0>",
                "2025-05-16T16:39:55.210Zhost-b:5:6 [0] NCCL INFO Using network IB", ""), "t");
        assertEquals(List.of("ip-10-36-29-253", "05-06-76-200", "host-b"), e.hosts());
    }

    /** NCCL's "NCCL_X set to V" (net_ib.cc, socket.cc) is its setting like "set by environment"; config fields are not. */
    @Test
    void settingsNcclSaysItSetTo() {
        NcclLogEvidence e = NcclLogReader.readString(String.join("\n",
                "h:1:1 [0] NCCL INFO NCCL_IB_HCA set to mlx5_9",
                "h:1:1 [0] NCCL INFO TUNER/Plugin: NCCL_TUNER_PLUGIN set to libnccl-tuner.so",
                "h:1:1 [0] NCCL INFO Comm config Blocking set to 1",
                "h:1:1 [0] NCCL INFO ENV/Plugin: Using ncclEnvExample (v2)", ""), "t");
        assertEquals(List.of("NCCL_IB_HCA=mlx5_9", "NCCL_TUNER_PLUGIN=libnccl-tuner.so", "NCCL_ENV_PLUGIN=ncclEnvExample"),
                e.env().stream().map(x -> x.name() + "=" + x.value()).toList());
        assertTrue(e.env().stream().allMatch(NcclLogEvidence.EnvSetting::fromNccl));
    }

    /** 2.27-2.30 lines: MNNVL fabric registration, MNNVL flag, GIN and RMA plugins, RAS dead processes, timings. */
    @Test
    void linesOfNccl228To230() {
        NcclLogEvidence e = NcclLogReader.readString(String.join("\n",
                "gb:1:2 [1] NCCL INFO MNNVL busId 0x901000 fabric UUID 3143b15bc2cd192b.28cc9b5473fb5b93 cliqueId 0x7ffe"
                        + " state 3 healthMask 0xaa",
                "gb:1:2 [1] NCCL INFO comm 0x1 rank 1 nRanks 8 nNodes 2 localRanks 4 localRank 1 MNNVL 1",
                "gb:1:2 [1] NCCL INFO Assigned GIN plugin GIN_IB_GDAKI to comm",
                "gb:1:2 [1] NCCL INFO GIN/Plugin: Assigned plugin GIN_PROXY type 2 to comm",
                "gb:1:2 [1] NCCL INFO RMA/Plugin: Assigned plugin RMA_IB to comm",
                "gb:1:2 [1] NCCL INFO Bootstrap timings total 0.157689 (create 0.000029, send 0.000098, recv 0.000079,"
                        + " ring 0.000054, delay 0.000000)",
                "DEAD",
                "  1 job process is considered dead (unreachable via the RAS network)",
                "  Process 3310 on node gb-b managing GPU 1", ""), "t");
        assertTrue(e.topology().stream().anyMatch(m -> m.kind().equals("mnnvl") && m.value().endsWith("healthMask 0xaa")));
        assertTrue(e.topology().stream().anyMatch(m -> m.kind().equals("mnnvl-on")));
        assertEquals(List.of("gin GIN_IB_GDAKI", "gin GIN_PROXY", "rma RMA_IB"), e.networks().stream()
                .map(m -> m.kind() + " " + m.value()).toList());
        assertEquals(1, e.warnings().size());
        assertTrue(e.warnings().get(0).message().contains("Process 3310 on node gb-b"), e.warnings().toString());
        assertEquals(0, e.counts().unused(), "every line understood");
    }
}
