package dev.ncclbench.diagnosis;

import dev.ncclbench.nccllog.NcclLogReader;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A WARN or an error return followed by the job's normal progress on its own rank is a warning at most; a job that
 * really failed is never read as healthy. Each case is NCCL's own format strings around the line in question.
 */
class SurvivalTest {
    private static final String INIT = "h:100:110 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000"
            + " commId 0x5 - Init ";
    private static final String PEER = "g:200:210 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 18000"
            + " commId 0x5 - Init ";
    private static final String NET = "h:100:110 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0";
    private static final String NET_PEER = "g:200:210 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0";

    private static Health health(String... lines) {
        return Diagnoser.diagnose(NcclLogReader.readString(String.join("\n", lines) + "\n", "t")).health();
    }

    @Test
    void anErrorReturnWhileProbingPluginsThenInitCompleteIsNoFailure() {
        assertEquals(Health.HEALTHY, health(INIT + "START", PEER + "START",
                "h:100:110 [0] NCCL INFO NCCL_IBEXT_DISABLE set by environment to 1.",
                "h:100:110 [0] NCCL INFO net.cc:79 -> 3",
                "h:100:110 [0] NCCL INFO include/net.h:24 -> 2",
                "h:100:110 [0] NCCL INFO Using network Socket", NET, NET_PEER, INIT + "COMPLETE", PEER + "COMPLETE"));
    }

    @Test
    void aConnectRetriedThenMadeIsNoFailure() {
        assertEquals(Health.HEALTHY, health(INIT + "START", PEER + "START",
                "h:100:110 [0] NCCL INFO Call to connect returned Connection refused, retrying",
                NET, NET_PEER, INIT + "COMPLETE", PEER + "COMPLETE"));
    }

    @Test
    void aConnectRetriedAndNeverMadeIsAFailure() {
        assertEquals(Health.INIT_FAILED, health(NET, NET_PEER,
                "h:100:110 [0] NCCL INFO Call to connect returned Connection timed out, retrying",
                "h:100:110 [0] NCCL INFO Call to connect returned Connection timed out, retrying"));
    }

    @Test
    void aWarnAfterInitCompleteStaysAFailure() {
        assertEquals(Health.RUN_FAILED, health(INIT + "START", NET, INIT + "COMPLETE",
                "h:100:120 [0] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer g<4242>",
                NET));
    }

    @Test
    void theApplicationsErrorAtTheEndStaysAFailure() {
        assertEquals(Health.RUN_FAILED, health(INIT + "START", NET, INIT + "COMPLETE",
                "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1191, unhandled system error, NCCL version 2.18.3"));
    }

    @Test
    void aRankThatNeverCompletesItsInitStaysFailedWhateverTheOthersDo() {
        assertEquals(Health.INIT_FAILED, health(INIT + "START", PEER + "START",
                "g:200:210 [0] transport/net_ib.cc:1000 NCCL WARN NET/IB : ibv_reg_mr failed: Cannot allocate memory",
                NET, NET_PEER, INIT + "COMPLETE"));
    }

    @Test
    void anotherRanksProgressInTheSameProcessIsNotThisRanks() {
        // one process driving GPUs 0 and 5: rank 0's WARN, then rank 5's SHM lines; rank 0 made no progress
        assertEquals(Health.INIT_FAILED, health(
                "u:39:75 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> failed :"
                        + " Software caused connection abort",
                "u:39:49 [5] NCCL INFO Channel 20 : 5[5] -> 4[4] via SHM/direct/direct"));
    }

    @Test
    void aResultsTableAfterTheLineIsProgress() {
        // the retry comes after the rank's last connection line: only nccl-tests' rows show the job went on
        assertEquals(Health.HEALTHY, health(NET, NET_PEER,
                "h:100:110 [0] NCCL INFO Call to connect returned Connection refused, retrying",
                "   1048576        262144     float     sum      -1    120.5    8.70    8.70      0    119.9    8.75    8.75      0"));
    }
}
