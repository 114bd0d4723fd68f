package dev.ncclbench.diagnosis.rules;

import dev.ncclbench.diagnosis.Diagnoser;
import dev.ncclbench.diagnosis.Diagnosis;
import dev.ncclbench.diagnosis.Health;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.nccllog.NcclLogReader;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NetSocketFallbackTest {
    /**
     * Two nodes of one GPU each: gpu-b found no IB device and uses sockets, gpu-a uses IB and prints its side of their
     * links as NET/IB. The pairs are on sockets; what the finding shows first is gpu-b's NET/Socket lines, not gpu-a's
     * IB lines (which read, under "uses TCP sockets", as if the tool contradicted itself).
     */
    private static final String LOG = String.join("\n",
            "gpu-a:100:200 [0] NCCL INFO Bootstrap: Using eth0:10.0.0.1<0>",
            "gpu-a:100:200 [0] NCCL INFO NCCL version 2.21.5+cuda12.4",
            "gpu-a:100:200 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>",
            "gpu-a:100:200 [0] NCCL INFO Using network IB",
            "gpu-a:100:200 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0",
            "gpu-a:100:200 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA",
            "gpu-a:100:200 [0] NCCL INFO Channel 01/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA",
            "gpu-a:100:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
            "gpu-a:100:200 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA",
            "gpu-b:300:400 [0] NCCL INFO Bootstrap: Using eth0:10.0.0.2<0>",
            "gpu-b:300:400 [0] NCCL INFO NET/IB : No device found.",
            "gpu-b:300:400 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0>",
            "gpu-b:300:400 [0] NCCL INFO Using network Socket",
            "gpu-b:300:400 [0] NCCL INFO comm 0x2 rank 1 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0",
            "gpu-b:300:400 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0",
            "gpu-b:300:400 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[0] [receive] via NET/Socket/0",
            "gpu-b:300:400 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [send] via NET/Socket/0",
            "gpu-b:300:400 [0] NCCL INFO Channel 01/0 : 1[0] -> 0[0] [send] via NET/Socket/0", "");

    @Test
    void theSocketHostIsNamedAndItsOwnSocketLinesComeFirst() throws IOException {
        Diagnosis d = Diagnoser.diagnose(new NcclLogReader()
                .read(new ByteArrayInputStream(LOG.getBytes(StandardCharsets.UTF_8)), "job.log").evidence());
        assertEquals(Health.DEGRADED, d.health());
        // the job is as slow as its worst link, and the reader learns at once that it is one host's
        assertTrue(d.reason().startsWith("inter-node TCP sockets (NET/Socket) on 1 of 2 host(s), from "), d.reason());
        Finding f = d.findings().stream().filter(x -> x.ruleId().equals("NET-SOCKET-FALLBACK")).findFirst().orElseThrow();
        assertTrue(f.detail().contains("on 1 of 2 host(s) (gpu-b)"), f.detail());
        assertTrue(f.evidence().get(0).contains("NET/Socket"), f.evidence().toString());
        assertTrue(d.evidence().get(0).contains("NET/Socket"), d.evidence().toString());
    }
}
