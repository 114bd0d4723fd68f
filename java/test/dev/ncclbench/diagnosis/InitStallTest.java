package dev.ncclbench.diagnosis;

import dev.ncclbench.nccllog.NcclLogReader;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ranks that started init and never completed it while peers of the same communicator did: the job stopped in init,
 * never "healthy". NCCL 2.21's own init lines (init.cc: "comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx
 * commId 0x%llx - Init START" / "- Init COMPLETE") and P2P connection lines.
 */
class InitStallTest {
    private static String init(int rank, int pid, String commId, String what) {
        return "box:" + pid + ":" + (pid + 80) + " [" + rank + "] NCCL INFO comm 0xa" + rank + " rank " + rank
                + " nranks 4 cudaDev " + rank + " nvmlDev " + rank + " busId 18000 commId " + commId + " - Init " + what;
    }

    private static final String P2P = "box:7001:7081 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM";

    private static Diagnosis diagnose(String... lines) {
        return Diagnoser.diagnose(NcclLogReader.readString(String.join("\n", lines) + "\n", "t"));
    }

    @Test
    void peersThatCompletedAndRanksThatNeverDidIsAFailedInit() {
        Diagnosis d = diagnose(init(0, 7001, "0x3c", "START"), init(1, 7002, "0x3c", "START"),
                init(2, 7003, "0x3c", "START"), init(3, 7004, "0x3c", "START"), P2P,
                init(0, 7001, "0x3c", "COMPLETE"), init(1, 7002, "0x3c", "COMPLETE"));
        assertEquals(Health.INIT_FAILED, d.health());
        assertEquals("likely", d.confidence(), "a log cut between two COMPLETE lines reads the same: never certain");
        assertTrue(d.reason().contains("ranks 2, 3 of 4 started init and never completed it, while ranks 0, 1"),
                d.reason());
        assertTrue(d.findings().stream().anyMatch(f -> f.ruleId().equals("INIT-NOT-COMPLETE")
                && f.severity() == dev.ncclbench.finding.Severity.ERROR), d.findings().toString());
    }

    @Test
    void noRankCompletedIsACutExcerptOrAHangAndStaysAWarning() {
        Diagnosis d = diagnose(init(0, 7001, "0x3c", "START"), init(1, 7002, "0x3c", "START"), P2P);
        assertEquals(Health.HEALTHY, d.health());
        assertTrue(d.findings().stream().anyMatch(f -> f.ruleId().equals("INIT-NOT-COMPLETE")
                && f.severity() == dev.ncclbench.finding.Severity.WARNING), d.findings().toString());
    }

    @Test
    void anotherCommunicatorsCompletedRanksSayNothingOfThisOne() {
        // two jobs of the same size read together (a folder of logs): 0x3c completed, 0x77 was cut before its end
        assertEquals(Health.HEALTHY, diagnose(init(0, 7001, "0x3c", "START"), init(1, 7002, "0x3c", "START"), P2P,
                init(0, 7001, "0x3c", "COMPLETE"), init(1, 7002, "0x3c", "COMPLETE"),
                init(2, 7003, "0x77", "START")).health());
    }

    @Test
    void theSameRankCompletedInAnotherProcessGotThrough() {
        // a restarted process (another pid) completed what the first one started
        assertEquals(Health.HEALTHY, diagnose(init(0, 7001, "0x3c", "START"), init(1, 7002, "0x3c", "START"), P2P,
                init(0, 7009, "0x3c", "START"), init(0, 7009, "0x3c", "COMPLETE"),
                init(1, 7002, "0x3c", "COMPLETE")).health());
    }
}
