package dev.ncclbench.diagnosis;

import dev.ncclbench.finding.Severity;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.ExitCode;
import dev.ncclbench.diagnosis.facts.Facts;
import dev.ncclbench.diagnosis.facts.RouteKind;
import dev.ncclbench.diagnosis.rules.ExplainRules;
import dev.ncclbench.finding.Rule;
import dev.ncclbench.nccllog.NcclLogEvidence;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The three stories the project exists for, each with the verdict and the remedy it must give. */
class SeedStoriesTest {

    private static Finding finding(Diagnosis d, String id) {
        return d.findings().stream().filter(f -> f.ruleId().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + id + " in " + d.findings()));
    }

    private static boolean mentions(List<String> lines, String text) {
        return lines.stream().anyMatch(l -> l.contains(text));
    }

    @Test
    void nicMisselectionIsSocketFallbackWithIbPresent() throws IOException {
        NcclLogEvidence e = FixtureTest.read("seeds/nic-misselection.log");
        Diagnosis d = Diagnoser.diagnose(e);
        assertEquals(RouteKind.SOCKET, d.path());
        assertEquals(Health.DEGRADED, d.health());
        assertEquals(ExitCode.DEGRADED, d.health().exitCode);
        Finding f = finding(d, "NET-SOCKET-FALLBACK");
        assertEquals(Severity.ERROR, f.severity());
        assertTrue(mentions(f.remedy(), "NCCL_IB_HCA=mlx5_0"), f.remedy().toString());
        assertTrue(mentions(f.remedy(), "NCCL_SOCKET_IFNAME="), f.remedy().toString());
        assertTrue(mentions(f.evidence(), "seeds/nic-misselection.log:4: Using network Socket"), f.evidence().toString());
        assertTrue(mentions(f.evidence(), "eth0"), f.evidence().toString());
        assertTrue(mentions(f.evidence(), "mlx5_0"), f.evidence().toString());
        // the pasted nccl-tests row is read too: 1.095 GB/s is 10 GbE territory
        assertEquals(1.095, e.measured().get(0).busbwGBps(), 1e-9);
    }

    @Test
    void ibWithoutGdrdmaIsHostStaged() throws IOException {
        Diagnosis d = Diagnoser.diagnose(FixtureTest.read("seeds/ib-without-gdrdma.log"));
        assertEquals(RouteKind.RDMA_HOST_STAGED, d.path());
        assertEquals(ExitCode.DEGRADED, d.health().exitCode);
        assertEquals("certain", d.confidence());
        Finding f = finding(d, "NET-IB-NO-GDR");
        assertTrue(mentions(f.remedy(), "nvidia_peermem"));
        assertTrue(mentions(f.remedy(), "DMA-BUF"));
        assertTrue(mentions(f.remedy(), "ReqRedir"));
        assertTrue(mentions(f.remedy(), "NCCL_NET_GDR_LEVEL"));
        assertTrue(mentions(f.evidence(), "GPU Direct RDMA Disabled for HCA 0 'mlx5_0'"));
        assertTrue(d.pairs().stream().allMatch(p -> p.path() == RouteKind.RDMA_HOST_STAGED));
    }

    @Test
    void bootstrapDeathNamesTheBadInterfaceSetting() throws IOException {
        Diagnosis d = Diagnoser.diagnose(FixtureTest.read("seeds/bootstrap-doesnotexist.log"));
        assertEquals(Health.INIT_FAILED, d.health());
        assertEquals(3, d.health().exitCode.code);
        assertEquals(RouteKind.FAILED, d.path());
        Finding f = finding(d, "BOOTSTRAP-NO-INTERFACE");
        assertTrue(mentions(f.evidence(), "bootstrap.cc:126"), f.evidence().toString());
        assertTrue(mentions(f.evidence(), "NCCL_SOCKET_IFNAME=doesnotexist0 "), f.evidence().toString());
        assertTrue(mentions(f.remedy(), "ip -br addr"));
        assertTrue(mentions(f.remedy(), "was 'doesnotexist0'"), f.remedy().toString());
    }

    @Test
    void aRuleThatCrashesIsAFindingNotAnAbortedReport() throws IOException {
        Rule<Facts> boom = new Rule<>() {
            public String id() {
                return "BOOM";
            }

            public Severity severity() {
                return Severity.ERROR;
            }

            public String summary() {
                return "always throws";
            }

            public List<Finding> check(Facts f) {
                throw new IllegalStateException("boom");
            }
        };
        Diagnosis d = Diagnoser.diagnose(FixtureTest.read("seeds/ib-without-gdrdma.log"), ExplainRules.book().with(boom),
                java.util.Set.of());
        assertTrue(d.findings().stream().anyMatch(f -> f.ruleId().equals("RULE-CRASHED")
                && f.title().contains("BOOM")));
        assertEquals(RouteKind.RDMA_HOST_STAGED, d.path()); // the other rules still judged
        assertTrue(d.findings().stream().anyMatch(f -> f.ruleId().equals("NET-IB-NO-GDR")));
    }
}
