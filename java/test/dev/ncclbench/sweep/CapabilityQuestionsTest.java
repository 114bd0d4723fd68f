package dev.ncclbench.sweep;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendChecks;
import dev.ncclbench.backend.Backends;
import dev.ncclbench.backend.MemoryBudget;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.backend.Readiness;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.env.Host;
import dev.ncclbench.launch.LaunchInfo;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.spec.MaxBytesSource;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.SweepProfile;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each capability answers one question, so a backend that is neither nccl nor socket is judged right on each: here a
 * GPU backend without CUDA events and without buffer registration, whose kernels are native. Its -e default is the
 * GPU's (it has device memory), it gets no JIT warm-up note (its data path is compiled), -u is its own, and -R is
 * refused as a flag it lacks, not as one that "needs a GPU" (it has one). Before the split one DEVICE_TIMING answered
 * all of these, and such a backend was either all GPU or all host.
 */
class CapabilityQuestionsTest {
    private static final long GIB = 1L << 30;

    private static final Backend GPU_WITHOUT_EVENTS = new Backend() {
        public String name() { return "gpu"; }
        public int autoOrder() { return 0; }
        public Set<Capability> capabilities() {
            return EnumSet.of(Capability.DEVICE_MEMORY, Capability.COMPILED_DATA_PATH);
        }
        public boolean supports(DataType type, ReduceOp op) { return true; }
        public MemoryBudget memory(RunSpec spec) {
            return MemoryBudget.perDevice("device memory of the smallest GPU (80 GiB)", 3, 80 * GIB, "as nccl-tests");
        }
        public Readiness readiness(RunSpec spec, Host host) { return Readiness.ready("test"); }
        public List<RankComm> open(RunSpec spec, List<ControlPlane> planes, int localRank, Host host) { return List.of(); }
    };

    private static RunSpec spec(int unalign, int localRegister) {
        // -e not given: SpecForBackend gives it the default of where this backend keeps its buffers
        return RunSpec.builder().collectives(List.of("all_reduce")).minBytes(8)
                .maxBytesSource(MaxBytesSource.DEFAULT).stepFactor(2).stepBytes(1 << 20).iters(20).warmupIters(1)
                .aggIters(1).repeat(1).checkIters(1).op(ReduceOp.SUM).type(DataType.FLOAT).root(0).average(1).blocking(0)
                .timeoutSeconds(0).gpusPerThread(1).threads(1).cudaGraph(0).perIterTiming(0).backend("gpu").localRanks(0)
                .ncclTests(new RunSpec.NcclTests(null, null,
                        new RunSpec.NcclTestsFlags(null, 0, 0, 0, unalign, 0, 0, localRegister, null)))
                .build();
    }

    @Test
    void aGpuBackendWithoutEventsIsAGpuForMemoryAndWarmUpButNotForRegistration() {
        List<String> notes = new ArrayList<>();
        RunSpec resolved = SpecForBackend.resolve(spec(0, 0), GPU_WITHOUT_EVENTS, new LaunchInfo(0, 1, 0, 1, null, 0, null,
                "none"), SweepProfile.SWEEP, Host.of(Map.of()), notes);
        // device memory: the GPU range's -e, not the host's
        assertEquals(SweepProfile.SWEEP.maxBytes(true), resolved.range().maxBytes(), notes.toString());
        // a compiled data path: no JIT warm-up note
        assertFalse(notes.contains(CodeWarmup.note()), notes.toString());
        // -u offsets device pointers: a backend with device memory takes it
        BackendChecks.refuseIdleFlags(GPU_WITHOUT_EVENTS, spec(1, 0));
        // -R registers buffers, which this one does not: refused, but it does not "need a GPU"
        NcclbenchException r = assertThrows(NcclbenchException.class,
                () -> BackendChecks.refuseIdleFlags(GPU_WITHOUT_EVENTS, spec(0, 1)));
        assertTrue(r.getMessage().startsWith("-R 1 does nothing on the gpu backend; it is a flag of the nccl backend"),
                r.getMessage());
    }

    @Test
    void theSocketBackendLacksEachAndSaysItNeedsAGpu() {
        Backend socket = Backends.byName("socket");
        for (Capability c : List.of(Capability.DEVICE_MEMORY, Capability.EVENT_TIMING, Capability.BUFFER_REGISTRATION,
                Capability.PLACES_OWN_THREADS, Capability.COMPILED_DATA_PATH)) {
            assertFalse(socket.capabilities().contains(c), c.name());
            assertTrue(Backends.byName("nccl").capabilities().contains(c), c.name());
        }
        NcclbenchException r = assertThrows(NcclbenchException.class,
                () -> BackendChecks.refuseIdleFlags(socket, spec(0, 1).withPlacement(new RunSpec.Placement("socket", 0))));
        assertTrue(r.getMessage().startsWith("nccl-tests flag -R 1 needs a GPU: it does nothing on the socket backend"),
                r.getMessage());
    }
}
