package dev.ncclbench.nccllog;

import dev.ncclbench.cli.Main;
import dev.ncclbench.diagnosis.Diagnoser;
import dev.ncclbench.diagnosis.Diagnosis;
import dev.ncclbench.diagnosis.Health;
import dev.ncclbench.diagnosis.facts.RouteKind;
import dev.ncclbench.finding.Finding;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real 1024-node x 8-GPU job's logs (generated into a temp dir, one file per node, short per rank so it is fast)
 * in which two nodes past host 512 fell back to NET/Socket: degraded, both named, as on a two-node log. The host
 * list used to stop at 512 hosts and called this job healthy. Their neighbours print their links to them as NET/Socket
 * too, but said "Using network IBext": they are not named (a drain list built from this would take healthy nodes).
 */
class ScaleLogSetTest {
    @TempDir
    static Path tmp;
    static Path sockets;
    static Path healthy;

    @BeforeAll
    static void generate() throws IOException {
        sockets = tmp.resolve("sockets");
        healthy = tmp.resolve("healthy");
        ScaleLogSet.write(sockets, new ScaleLogSet.Spec(1024, 8, 20, true, Set.of(700, 1001), 2));
        ScaleLogSet.write(healthy, new ScaleLogSet.Spec(1024, 8, 20, true, Set.of(), 2));
    }

    private static int explain(StringWriter out, Path dir) {
        return Main.run(new String[] {"explain", dir.toString()}, new PrintWriter(out), new PrintWriter(new StringWriter()));
    }

    @Test
    void twoSocketNodesPastHost512AreNamedAndDegradeTheJob() {
        StringWriter out = new StringWriter();
        assertEquals(6, explain(out, sockets), out.toString());
        String said = out.toString();
        assertTrue(said.contains("1024 host(s), 8192 ranks"), said);
        assertTrue(said.contains("Path:   inter-node TCP sockets"), said);
        assertTrue(said.contains("Why:    inter-node TCP sockets (NET/Socket) on 2 of 1024 host(s), from "), said);
        assertTrue(said.contains("NET-SOCKET-FALLBACK"), said);
        assertTrue(said.contains("on 2 of 1024 host(s) (node-0700, node-1001)"), said);
    }

    @Test
    void theSameJobOnRdmaIsHealthyAndCertainAsASmallOne() throws IOException {
        Diagnosis big = Diagnoser.diagnose(NcclLogReader.readAll(List.of(healthy)));
        Path small = tmp.resolve("small");
        ScaleLogSet.write(small, new ScaleLogSet.Spec(2, 8, 20, false, Set.of(), 2));
        Diagnosis two = Diagnoser.diagnose(NcclLogReader.readAll(List.of(small)));
        assertEquals(two.path(), big.path());
        assertEquals(RouteKind.RDMA_GDR, big.path());
        assertEquals(two.health(), big.health());
        assertEquals(two.confidence(), big.confidence());
        assertEquals(1024, big.hosts());
        assertEquals(0, big.health().exitCode.code);
    }

    @Test
    void capsBoundTheListsNeverTheVerdict() throws IOException {
        // lists of 64 items: the socket connections are past every cap, the per-host facts still judge them
        NcclLogEvidence e = new NcclLogReader(64).read(List.of(sockets)).evidence();
        assertEquals(64, e.connections().size());
        assertEquals(1024, e.hosts().size());
        Diagnosis d = Diagnoser.diagnose(e);
        assertEquals(RouteKind.SOCKET, d.path());
        assertEquals(Health.DEGRADED, d.health());
        Finding f = d.findings().stream().filter(x -> x.ruleId().equals("NET-SOCKET-FALLBACK")).findFirst().orElseThrow();
        assertTrue(f.detail().contains("node-0700, node-1001"), f.detail());
        assertTrue(d.evidence().stream().anyMatch(x -> x.contains("host node-0700")), d.evidence().toString());
    }

    @Test
    void filesReadInParallelGiveTheEvidenceOfOneAfterTheOther() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(sockets)) {
            files = s.sorted().toList();
        }
        NcclLogReader one = new NcclLogReader();
        for (Path f : files) {
            try (InputStream in = Files.newInputStream(f)) {
                one.read(in, f.toString());
            }
        }
        assertEquals(one.evidence(), new NcclLogReader().read(files).evidence());
    }

    @Test
    void traceLinesCountedByTheirHeaderGiveTheEvidenceOfParsingEveryLine() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(sockets)) {
            files = s.sorted().limit(64).toList();
        }
        NcclLogReader parsed = new NcclLogReader();
        parsed.traceByHeader = false;
        NcclLogReader fast = new NcclLogReader();
        for (Path f : files) {
            try (InputStream in = Files.newInputStream(f)) {
                parsed.read(in, f.toString());
            }
            try (InputStream in = Files.newInputStream(f)) {
                fast.read(in, f.toString());
            }
        }
        assertEquals(parsed.evidence(), fast.evidence());
        // and lines made to look alike: two threads in turn, a space, no opCount, a WARN, an escape, non-ASCII, a bare colon
        String h = "node-0001:4242:4250 [3] NCCL INFO ";
        String log = String.join("\n", h + "NCCL version 2.19.3+cuda12.2", h + "AllReduce: opCount 3f sendbuff 0x1",
                h + "AllReduce: opCount 40 sendbuff 0x1", "node-0001:4242:4251 [3] NCCL INFO AllReduce: opCount 41 x",
                h + "AllReduce: opCount 41 y", "node-0001:4242:4251 [3] NCCL INFO AllReduce: opCount 41 z",
                h + "AllReduce:  opCount 42 x", h + "All Reduce: opCount 43 x", h + "Broadcast: opcount 44 x",
                h + "AllReduce: opCount ", h + "   AllReduce: opCount 45 x", "node-0001:4242:4250 [3] NCCL WARN Call to ibv_x failed",
                h + "AllReduce: opCount 46 x", h + "\u001b[31mAllReduce: opCount 47 x", h + "Äll: opCount 48 x",
                h + "A: opCount 49 x", h + "Channel 00/0 : 0[0] -> 1[1] via NET/Socket/0", h + "AllGather: opCount 4a x", "");
        NcclLogReader a = new NcclLogReader();
        a.traceByHeader = false;
        a.read(new java.io.ByteArrayInputStream(log.getBytes(java.nio.charset.StandardCharsets.UTF_8)), "crafted.log");
        NcclLogReader b = new NcclLogReader();
        b.read(new java.io.ByteArrayInputStream(log.getBytes(java.nio.charset.StandardCharsets.UTF_8)), "crafted.log");
        assertEquals(a.evidence(), b.evidence());
    }

    @Test
    void withoutUsingNetworkLinesEveryHostWithSocketLinksIsNamed() throws IOException {
        // older or trimmed logs say nothing about the network chosen: then the lines alone decide, neighbours included
        Path trimmed = tmp.resolve("trimmed");
        Files.createDirectories(trimmed);
        try (Stream<Path> s = Files.list(sockets)) {
            for (Path f : s.toList()) {
                List<String> kept = Files.readAllLines(f).stream().filter(l -> !l.contains("Using network")).toList();
                Files.write(trimmed.resolve(f.getFileName()), kept);
            }
        }
        Diagnosis d = Diagnoser.diagnose(NcclLogReader.readAll(List.of(trimmed)));
        Finding f = d.findings().stream().filter(x -> x.ruleId().equals("NET-SOCKET-FALLBACK")).findFirst().orElseThrow();
        assertTrue(f.detail().contains("on 6 of 1024 host(s) (node-0699, node-0700, node-0701, node-1000, node-1001,"
                + " node-1002)"), f.detail());
    }
}
