package dev.ncclbench.nccllog;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NcclLogReaderTest {

    private static NcclLogEvidence read(String text) {
        return NcclLogReader.readString(text, "t.log");
    }

    @Test
    void launcherPrefixesDoNotBecomePartOfTheHost() {
        NcclLogEvidence e = read("""
                [1,0]<stdout>:nodeA:12:13 [0] NCCL INFO Bootstrap : Using [0]eth0:10.0.0.1<0>
                (RayWorker pid=5) nodeB:14:15 [1] NCCL INFO Bootstrap: Using eth1:10.0.0.2<0>
                [3] nodeC:16:17 [2] NCCL INFO Bootstrap : Using ib0:10.0.0.3<0>
                """);
        assertEquals(java.util.List.of("nodeA", "nodeB", "nodeC"), e.hosts());
        assertEquals(java.util.List.of("eth0", "eth1", "ib0"), e.bootstrap().stream().map(NcclLogEvidence.Interface::name).toList());
        assertEquals(12, e.processes().get(0).pid());
    }

    @Test
    void connectionFormatsOfEveryEra() {
        NcclLogEvidence e = read("""
                h:1:2 [0] NCCL INFO Ring 00 : 43 -> 44 [receive] via NET/Socket/0
                h:1:2 [0] NCCL INFO Ring 00 : 15[41000] -> 0[1b000] via P2P/IPC
                h:1:2 [0] NCCL INFO Channel 05 : 7[e3000] -> 8[31000] [send] via NET/IB/3/GDRDMA
                h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/1(3)/GDRDMA(PCI)/Shared
                h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct
                h:1:2 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via direct shared memory
                h:1:2 [0] NCCL INFO Channel 02/0 : 0[0] -> 9[1] [send] via NET/AWS Libfabric/0/GDRDMA
                """);
        var c = e.connections();
        assertEquals(7, c.size());
        assertEquals(Transport.NET, c.get(0).transport());
        assertEquals("Socket", c.get(0).netName());
        assertEquals(Direction.RECEIVE, c.get(0).direction());
        assertEquals(Transport.P2P, c.get(1).transport());
        assertEquals("IPC", c.get(1).detail());
        assertTrue(c.get(2).gdr());
        assertEquals(3, c.get(2).netDev());
        assertEquals(3, c.get(3).proxyRank());
        assertTrue(c.get(3).shared() && c.get(3).gdr());
        assertEquals(Transport.SHM, c.get(4).transport());
        assertEquals(Transport.SHM, c.get(5).transport());
        assertEquals("AWS Libfabric", c.get(6).netName());
        assertEquals(0, e.counts().unused());
    }

    @Test
    void channelsAggregateIntoOneConnection() {
        StringBuilder sb = new StringBuilder();
        for (int ch = 0; ch < 32; ch++) {
            sb.append(String.format("h:1:2 [0] NCCL INFO Channel %02d/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA%n", ch));
        }
        NcclLogEvidence e = read(sb.toString());
        assertEquals(1, e.connections().size());
        assertEquals(32, e.connections().get(0).channels());
        assertEquals(32, e.connections().get(0).lines());
    }

    @Test
    void warnHeadersAcrossVersionsAndWrappedWarns() {
        NcclLogEvidence e = read("""
                h:1:2 [0] misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type 4 != 3
                [2025-06-01 12:00:01] h:1:2 [0] transport/net_ib.cc:818 NCCL WARN NET/IB : Got completion with error 12
                  opcode 0, len 0, vendor err 129
                [2026-07-29 07:21:55] localhost:24281:24281 [0] bootstrap.cc:126 (bootstrapNetInit) NCCL WARN Bootstrap : no socket interface found
                """);
        var w = e.warnings();
        assertEquals(3, w.size());
        assertEquals("misc/socket.cc", w.get(0).ncclFile());
        assertEquals(441, w.get(0).ncclLine());
        assertEquals("transport/net_ib.cc", w.get(1).ncclFile());
        assertTrue(w.get(1).message().endsWith("vendor err 129"), w.get(1).message());
        assertEquals("bootstrapNetInit", w.get(2).function());
        assertEquals("localhost", w.get(2).host());
        assertEquals(4, w.get(2).source().line());
    }

    @Test
    void oldLinesWithoutTheNcclWordAndAnsiCodes() {
        NcclLogEvidence e = read("""
                node1:100:100 [0] INFO NET/IB: [0] mlx5_1:1/IB
                node1:100:100 [0] INFO Using internal Network IB
                \u001b[32mnode1:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [RO]; OOB eth0:10.0.0.1<0>\u001b[0m
                """);
        assertEquals("IB", e.networks().get(0).value());
        var devs = e.netDevices();
        assertEquals("mlx5_1", devs.get(0).name());
        assertEquals("IB", devs.get(0).linkLayer());
        assertEquals("RoCE", devs.get(1).linkLayer());
        assertEquals("node1", e.hosts().get(0));
    }

    @Test
    void versionsEnvInitAndGdr() {
        NcclLogEvidence e = read("""
                NCCL version 2.30.7+cuda13.0
                h:1:1 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_0.
                h:1:1 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'
                h:1:1 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 2[2] / HCA 0 (distance 3 >= 2)
                h:1:1 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 3 nranks 16 cudaDev 3 nvmlDev 3 busId 3d000 commId 0x9 - Init COMPLETE
                export NCCL_API_TOKEN=abc NCCL_DEBUG=INFO
                """);
        assertEquals("2.30.7", e.ncclVersions().get(0).version());
        assertEquals("13.0", e.cudaVersions().get(0).version());
        assertEquals("mlx5_0", e.envValue("NCCL_IB_HCA").orElseThrow().value());
        assertEquals("<redacted>", e.envValue("NCCL_API_TOKEN").orElseThrow().value());
        assertEquals(2, e.gdr().size());
        assertFalse(e.gdr().get(0).enabled());
        var r = e.ranks().get(0);
        assertEquals(3, r.rank());
        assertEquals(16, r.nranks());
        assertEquals("3d000", r.busId());
        assertTrue(r.initComplete());
    }

    @Test
    void countsWhatItCannotUse() {
        NcclLogEvidence e = read("""
                h:1:1 [0] NCCL INFO Setting affinity for GPU 0 to ffff
                some application output
                       8             2     float     sum      -1    12.34    0.00    0.00      0    11.90    0.00    0.00      0
                """);
        assertEquals(3, e.counts().total());
        assertEquals(1, e.counts().unused());
        assertEquals(2, e.counts().otherLines());
        assertEquals(1, e.measured().size());
    }
}
