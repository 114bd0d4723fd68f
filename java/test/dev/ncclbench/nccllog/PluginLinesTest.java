package dev.ncclbench.nccllog;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What NET plugins print through NCCL's logger: aws-ofi-nccl and GPUDirect-TCPX, from their own format strings. */
class PluginLinesTest {

    private static NcclLogEvidence read(String text) {
        return NcclLogReader.readString(text, "t.log");
    }

    @Test
    void aPluginWarnKeepsItsHostAndPidBehindAPrettyFunction() {
        // aws-ofi-nccl passes __PRETTY_FUNCTION__ and __LINE__ where NCCL passes its file and line
        NcclLogEvidence e = read("""
                p5-a:7001:7020 [0] int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**):234 NCCL WARN NET/OFI Caught exception in rdma_init: x
                [2026-03-10 14:02:11] p5-b:81:82 [3] ncclResult_t nccl_net_ofi_reg_mr(void*, void*, size_t, int, void**):88 NCCL WARN NET/OFI Unable to register memory
                h:1:2 [0] bootstrap.cc:145 NCCL WARN Bootstrap Root : rank 0 of 4 ranks has already checked in
                """);
        var w = e.warnings();
        assertEquals("p5-a", w.get(0).host());
        assertEquals(7001, w.get(0).pid());
        assertEquals("int nccl_net_ofi_create_plugin(nccl_net_ofi_plugin_t**)", w.get(0).ncclFile());
        assertEquals(234, w.get(0).ncclLine());
        assertEquals("p5-b", w.get(1).host());
        assertEquals(81, w.get(1).pid());
        assertEquals(88, w.get(1).ncclLine());
        assertEquals("bootstrap.cc", w.get(2).ncclFile());
        assertEquals("h", w.get(2).host());
    }

    @Test
    void providerInterfacesAndAPluginNameInTheConnectionLine() {
        NcclLogEvidence e = read("""
                h:1:2 [0] NCCL INFO NET/OFI Selected Provider is efa (found 4 nics)
                h:1:2 [0] NCCL INFO NET/OFI Selected provider is efa, fabric is efa-direct (found 32 nics)
                h:1:2 [0] NCCL INFO NET/GPUDirectTCPX : Using [0]eth1:192.168.1.10<0> [1]eth2:192.168.2.10<0>
                h:1:2 [0] NCCL INFO NET/GPUDirectTCPX plugin initialized
                h:1:2 [0] NCCL INFO NET/Plugin: Loaded net plugin Libfabric (v10)
                h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via GPUDirectTCPX_v7/0/GDRDMA
                """);
        List<String> providers = e.networks().stream().filter(m -> m.kind().equals("provider"))
                .map(NcclLogEvidence.Mention::value).distinct().toList();
        assertEquals(List.of("efa"), providers);
        assertTrue(e.netDevices().isEmpty(), "a TCPX NIC is no RDMA device: " + e.netDevices());
        assertTrue(e.networks().stream().anyMatch(m -> m.kind().equals("plugin") && m.value().equals("GPUDirectTCPX")));
        assertTrue(e.networks().stream().anyMatch(m -> m.kind().equals("plugin") && m.value().equals("Libfabric")));
        assertEquals(Transport.NET, e.connections().get(0).transport());
        assertEquals("GPUDirectTCPX_v7", e.connections().get(0).netName());
        assertTrue(e.connections().get(0).gdr());
    }
}
