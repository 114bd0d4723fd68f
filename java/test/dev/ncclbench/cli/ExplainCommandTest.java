package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExplainCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(args, new PrintWriter(out), new PrintWriter(err));
    }

    private static String fixture(String rel) {
        return Path.of(System.getProperty("ncclbench.basedir", "."), "java", "test-resources", "nccllog", rel)
                .toString();
    }

    @Test
    void seedsGiveTheirExitCodes() {
        assertEquals(6, run("explain", fixture("seeds/nic-misselection.log")));
        assertTrue(out.toString().contains("NET-SOCKET-FALLBACK"), out.toString());
        assertTrue(out.toString().contains("Path:   inter-node TCP sockets"), out.toString());
        assertEquals(6, run("explain", fixture("seeds/ib-without-gdrdma.log")));
        assertEquals(3, run("explain", fixture("seeds/bootstrap-doesnotexist.log")));
        assertEquals(0, run("explain", fixture("era-2.5-2.8/ib-gdr-busid.log")));
    }

    /** Issue 50 item 3: the job asked for InfiniBand (NCCL_IB_HCA) and NET/Socket lines show it got TCP: exit 6. */
    @Test
    void aJobThatAskedForRdmaAndGotSocketsIsDegraded() {
        assertEquals(6, run("explain", fixture("rules/net-socket-rdma-asked.log")));
        assertTrue(out.toString().contains("asked for RDMA"), out.toString());
        // the same request with "Using network Socket" alone: the path NCCL chose, a warning, not yet the bytes
        assertEquals(0, run("explain", fixture("rules/net-socket-rdma-asked-no-channels.log")));
    }

    /** A folder of run folders: one verdict per run and one line for all, the worst run's exit code. */
    @Test
    void aFolderOfRunFoldersGivesOneVerdictPerRun(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        String[][] runs = {{"run-healthy", "era-2.5-2.8/ib-gdr-busid.log"}, {"run-degraded", "seeds/ib-without-gdrdma.log"},
            {"run-socket-backend", null}};
        for (String[] r : runs) {
            java.nio.file.Files.createDirectories(dir.resolve(r[0]));
            java.nio.file.Files.writeString(dir.resolve(r[0]).resolve("result.json"), "{}");
            if (r[1] != null) {
                java.nio.file.Files.copy(Path.of(fixture(r[1])), dir.resolve(r[0]).resolve("nccl.host.1.log"));
            }
        }
        assertEquals(6, run("explain", dir.toString()));
        String text = out.toString();
        assertTrue(text.lines().anyMatch(l -> l.startsWith("run-healthy") && l.contains("rdma-gdr")), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("run-degraded") && l.contains("degraded")), text);
        // a run that kept no NCCL log (the socket backend's) is listed and does not decide the exit code
        assertTrue(text.lines().anyMatch(l -> l.startsWith("run-socket-backend") && l.contains("no NCCL log")), text);
        assertTrue(text.contains("3 run folder(s)") && text.contains("exit 6"), text);
        // one of them alone is the usual explanation
        assertEquals(0, run("explain", dir.resolve("run-healthy").toString()));
    }

    @Test
    void aDirectoryOfPerRankFilesIsOneLog() {
        assertEquals(0, run("explain", fixture("era-2.18-2.23")));
    }

    @Test
    void jsonCarriesTheWholeStructure() throws Exception {
        assertEquals(6, run("explain", "--json", "-", fixture("seeds/ib-without-gdrdma.log")));
        JsonNode doc = new ObjectMapper().readTree(out.toString());
        assertEquals("ncclbench.explain", doc.get("kind").asText());
        assertEquals(2, doc.get("schema_version").asInt());
        assertEquals("rdma-host-staged", doc.get("summary").get("path").asText());
        assertEquals("RDMA_HOST_STAGED", doc.get("diagnosis").get("path").asText());
        assertTrue(doc.get("evidence").get("connections").size() > 0);
    }

    @Test
    void stdinIsRead() {
        ExplainCommand cmd = new ExplainCommand();
        picocli.CommandLine cl = new picocli.CommandLine(cmd);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        cmd.stdin = new java.io.ByteArrayInputStream(
                "h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n".getBytes());
        assertEquals(0, cl.execute("-"));
        assertTrue(out.toString().contains("peer to peer"), out.toString());
    }

    @Test
    void aMissingFileIsOneLineAndExit2() {
        assertEquals(2, run("explain", "/nonexistent/nccl.log"));
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().contains("/nonexistent/nccl.log"));
    }

    @Test
    void inputWithoutNcclLinesIsNotAPass() {
        ExplainCommand cmd = new ExplainCommand();
        picocli.CommandLine cl = new picocli.CommandLine(cmd);
        cl.setOut(new PrintWriter(out));
        cmd.stdin = new java.io.ByteArrayInputStream("hello\nworld\n".getBytes());
        assertEquals(2, cl.execute("-"));
        assertTrue(out.toString().contains("NO-NCCL-LINES"), out.toString());
    }

    @Test
    void ignoringTheRuleThatDegradesThePathMakesItHealthy() {
        assertEquals(0, run("explain", "--ignore", "NET-SOCKET-FALLBACK", fixture("seeds/nic-misselection.log")));
        assertTrue(!out.toString().contains("[ERROR] NET-SOCKET-FALLBACK"), out.toString());
        // repeatable
        assertEquals(0, run("explain", "--ignore", "NET-IB-NO-GDR", "--ignore", "LOG-LINES-UNUSED",
                fixture("seeds/ib-without-gdrdma.log")));
    }

    @Test
    void anUnknownRuleIdIsOneLineAndExit2() {
        assertEquals(2, run("explain", "--ignore", "NO-SUCH-RULE", fixture("seeds/nic-misselection.log")));
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().contains("NO-SUCH-RULE"), err.toString());
    }

    @Test
    void failOnTurnsAHealthyPathWithFindingsIntoExit6() {
        // SHM inside a node is a healthy path with a WARNING finding (INTRA-SHM)
        assertEquals(0, run("explain", fixture("era-2.10-2.17/shm-p2p-disabled.log")));
        assertEquals(6, run("explain", "--fail-on", "warn", fixture("era-2.10-2.17/shm-p2p-disabled.log")));
        assertEquals(0, run("explain", "--fail-on", "error", fixture("era-2.10-2.17/shm-p2p-disabled.log")));
        assertEquals(0, run("explain", "--fail-on", "warn", "--ignore", "INTRA-SHM", "--ignore", "NCCL-WARN",
                fixture("era-2.10-2.17/shm-p2p-disabled.log")));
        assertEquals(2, run("explain", "--fail-on", "sometimes", fixture("era-2.10-2.17/shm-p2p-disabled.log")));
        assertTrue(err.toString().contains("'--fail-on': expected one of [warn, error] but was 'sometimes'"), err.toString());
    }

    @Test
    void rulesListsEveryExplainRuleWithItsSeverity() {
        assertEquals(0, run("rules"));
        String text = out.toString();
        for (var r : dev.ncclbench.diagnosis.rules.ExplainRules.book().rules()) {
            assertTrue(text.lines().anyMatch(l -> l.contains(r.id()) && l.contains(r.severity().name())),
                    r.id() + " missing from\n" + text);
        }
        assertTrue(text.contains("NET-SOCKET-FALLBACK") && text.contains("[degrades the path]"), text);
    }

    @Test
    void aFailedJobIsNeverHealthy() {
        assertEquals(4, run("explain", fixture("rules/net-peer-lost.log")));
        assertTrue(out.toString().contains("Health: run failed"), out.toString());
        assertTrue(out.toString().contains("first on node-a (rank 0, pid 2101)"), out.toString());
        assertEquals(4, run("explain", fixture("rules/ib-completion-error.log")));
        assertTrue(out.toString().contains("IBV_WC_RETRY_EXC_ERR (12)"), out.toString());
        assertEquals(3, run("explain", fixture("rules/cuda-error.log")));
        assertEquals(3, run("explain", fixture("rules/socket-error.log")));
    }

    @Test
    void severalHostsWithOnlyIntraNodeLinesAreNotP2p() throws Exception {
        assertEquals(2, run("explain", "--json", "-", fixture("rules/inter-node-path-unknown.log")));
        JsonNode doc = new ObjectMapper().readTree(out.toString());
        assertEquals("unknown", doc.get("summary").get("path").asText());
        assertTrue(doc.get("diagnosis").get("reason").asText().contains("NCCL_DEBUG_SUBSYS=INIT,NET"),
                doc.get("diagnosis").get("reason").asText());
        assertEquals(4, doc.get("summary").get("ranks").asInt());
    }
}
