package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.BackendException;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.Counts;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pure-Java planning of the nccl backend, held against nccl-tests' src/common.cu semantics. */
class PlanningTest {
    @Test
    void eventsAreSharedBoundariesUnlessZ3PairsThem() {
        EventPlan p = EventPlan.of(20, 0);
        assertEquals(21, p.eventCount());
        assertEquals(5, p.startEvent(5));
        assertEquals(20, p.startEvent(20), "the closing event after the loop");
        assertEquals(List.of(5, 6), List.of(p.interval(5)[0], p.interval(5)[1]));
        assertThrows(IllegalStateException.class, () -> p.stopEvent(0));
        EventPlan z3 = EventPlan.of(20, 3);
        assertEquals(40, z3.eventCount());
        assertEquals(10, z3.startEvent(5));
        assertEquals(11, z3.stopEvent(5));
        assertEquals(List.of(10, 11), List.of(z3.interval(5)[0], z3.interval(5)[1]));
    }

    @Test
    void callsWalkThroughTheMaxSizeBufferAndWrapAsNcclTestsDoes() {
        long max = 8L << 30;
        assertEquals(0, BufferShift.offset(8, 8, max, 0));
        assertEquals(8, BufferShift.offset(8, 8, max, 1));
        long mb32 = 32L << 20;
        long steps = max / mb32;
        assertEquals(mb32 * 7, BufferShift.offset(mb32, mb32, max, 7));
        assertEquals(0, BufferShift.offset(mb32, mb32, max, steps), "wraps after maxBytes / size calls");
        assertEquals(0, BufferShift.offset(max, max, max, 5), "the largest size never moves");
        // all_gather: the larger of send and receive bytes is the step
        assertEquals(3 * 4096, BufferShift.offset(1024, 4096, 1 << 20, 3));
        assertEquals(0, BufferShift.offset(0, 0, max, 3));
        // a shifted call always stays inside the allocation
        for (long size = 8; size <= max; size *= 2) {
            for (long call = 0; call < 64; call++) {
                assertTrue(BufferShift.offset(size, size, max, call) + size <= max);
            }
        }
    }

    @Test
    void theLocalRankPicksTheGpus() {
        assertEquals(3, DevicePlan.of(3, 1, 1, 8).first());
        DevicePlan two = DevicePlan.of(1, 2, 2, 8);
        assertEquals(4, two.firstOf(0));
        assertEquals(6, two.firstOf(1));
        BackendException e = assertThrows(BackendException.class, () -> DevicePlan.of(1, 1, 1, 1));
        assertEquals(ExitCode.ENVIRONMENT, e.exitCode());
        assertTrue(e.getMessage().contains("local rank 1") && e.getMessage().contains("but 1 is visible"), e.getMessage());
    }

    @Test
    void theVerifyRunsReproduceEveryCollectivesSources() {
        for (Collective c : Collectives.all()) {
            for (int n : new int[] {1, 2, 3, 4}) {
                Counts counts = c.counts(1000, 4, n);
                for (int root = 0; root < n; root++) {
                    for (int rank = 0; rank < n; rank++) {
                        List<VerifyPlan.Run> runs = VerifyPlan.of(c, rank, counts, n, root, 4).orElseThrow(
                                () -> new AssertionError(c.name() + " has no kernel plan"));
                        long[] want = new long[(int) counts.recvCount()];
                        java.util.Arrays.fill(want, Long.MIN_VALUE);
                        for (VerifyPlan.Run r : runs) {
                            for (long j = 0; j < r.count(); j++) {
                                int at = (int) (r.offset() + j);
                                want[at] = r.reduced() ? -(r.firstIndex() + j) - 10 : Collective.at(r.srcRank(), r.firstIndex() + j);
                            }
                        }
                        for (int j = 0; j < want.length; j++) {
                            long src = c.hasOutput(rank, root) ? c.source(rank, j, counts, n, root, 4) : Collective.UNCHECKED;
                            long exp = src == Collective.REDUCED ? -c.reducedIndex(rank, j, counts, n) - 10
                                    : src == Collective.UNCHECKED ? Long.MIN_VALUE : src;
                            assertEquals(exp, want[j], c.name() + " n=" + n + " root=" + root + " rank=" + rank + " j=" + j);
                        }
                    }
                }
            }
        }
    }

    @Test
    void cudaStatusesAreNotNcclStatuses() {
        assertEquals(ExitCode.ENVIRONMENT, CudaStatus.exitCode(35), "cudaErrorInsufficientDriver");
        assertEquals("cudaErrorInsufficientDriver", CudaStatus.name(35));
        assertTrue(CudaStatus.remedy(35).contains("driver"));
        assertEquals(ExitCode.ENVIRONMENT, CudaStatus.exitCode(100));
        assertEquals(ExitCode.ENVIRONMENT, CudaStatus.exitCode(34));
        assertEquals(ExitCode.RUN_FAILED, CudaStatus.exitCode(700), "an illegal address is a failed run");
        assertEquals(ExitCode.RUN_FAILED, CudaStatus.exitCode(2), "out of memory is a failed run");
        assertEquals(ExitCode.OK, CudaStatus.exitCode(0));
        assertEquals(ExitCode.TIMEOUT, NcclStatus.exitCode(8), "ncclTimeout");
        assertEquals(ExitCode.RUN_FAILED, NcclStatus.exitCode(6), "ncclRemoteError");
        assertTrue(NcclStatus.pending(7) && NcclStatus.healthy(7) && NcclStatus.healthy(0));
        assertTrue(!NcclStatus.healthy(3));
        assertEquals("ncclInProgress", NcclStatus.name(7));
        assertEquals("ncclResult 35", NcclStatus.name(35));
    }

    @Test
    void cudaStatusValuesMatchTheCudaHeaders() throws Exception {
        java.nio.file.Path h = java.nio.file.Path.of("/usr/local/cuda/include/driver_types.h");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isRegularFile(h), "no CUDA headers here: " + h);
        String text = java.nio.file.Files.readString(h);
        for (var e : CudaStatus.ENVIRONMENT.entrySet()) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\b" + e.getValue() + "\\s*=\\s*(\\d+)").matcher(text);
            assertTrue(m.find(), e.getValue() + " not in " + h);
            assertEquals(e.getKey().intValue(), Integer.parseInt(m.group(1)), e.getValue());
        }
    }

    @Test
    void theHangMessageNamesTheRankAndTheStep() {
        assertEquals("rank 2 did not reach 'ncclCommInitRank' within 5 s (-T)", BlockedCallWatchdog.hang(2, "ncclCommInitRank", 5));
        assertEquals(300, BlockedCallWatchdog.limitSeconds(null));
    }
}
