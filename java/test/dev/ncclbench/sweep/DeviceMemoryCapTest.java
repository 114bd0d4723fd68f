package dev.ncclbench.sweep;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendChecks;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.backend.MemoryBudget;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.backend.Readiness;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.spec.RunSpec;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A GPU backend's per-device budget (nccl-tests' maxBytes cap, here for a 16 GiB GPU with -c: 14 GiB / 3): the
 * default -e is lowered to it with a header line, an -e the user gave is lowered as nccl-tests lowers it when this
 * process is the whole job and refused with the -e that fits in a job of several processes, and the
 * local ranks (threads, each with its own GPUs) do not share it. The backend here only answers memory().
 */
class DeviceMemoryCapTest {
    private static final long GIB = 1L << 30;
    private static final long CAP = 14 * GIB / 3;

    private static RunSpec spec(long max, String source, int threads) {
        return RunSpec.builder().collectives(List.of("all_reduce"))
                .minBytes(8).maxBytes(max).maxBytesSource(source).stepFactor(2).stepBytes(1 << 20)
                .iters(20).warmupIters(1).aggIters(1).repeat(1)
                .checkIters(1).op(ReduceOp.SUM).type(DataType.FLOAT).root(0)
                .average(1).blocking(0).timeoutSeconds(0)
                .gpusPerThread(1).threads(threads).cudaGraph(0).perIterTiming(0)
                .backend("gpu").localRanks(threads)
                .jsonFile(Path.of("r.json")).outDir(Path.of("."))
                .socketsPerPeer(1).socketIfname(null).socketAlgo("auto").socketChunk(0)
                .build();
    }

    private static final Backend GPU = new Backend() {
        public String name() { return "gpu"; }
        public int autoOrder() { return 0; }
        public Set<Capability> capabilities() { return EnumSet.of(Capability.DEVICE_TIMING); }
        public boolean supports(DataType type, ReduceOp op) { return true; }
        public MemoryBudget memory(RunSpec spec) {
            return MemoryBudget.perDevice("device memory of the smallest GPU (16 GiB)", 3, CAP * 3, "as nccl-tests");
        }
        public Readiness readiness(RunSpec spec) { return Readiness.ready("test"); }
        public List<RankComm> open(RunSpec spec, List<ControlPlane> planes, int localRank) { return List.of(); }
    };

    @Test
    void theDefaultMaximumIsLoweredToTheGpusRoomWithOneHeaderLine() {
        List<String> notes = new ArrayList<>();
        RunSpec capped = SpecForBackend.capToDevice(spec(8 * GIB, "default", 1), GPU, notes);
        assertEquals(CAP, capped.maxBytes());
        assertEquals(1, notes.size());
        assertTrue(notes.get(0).startsWith("-e reduced from 8 GiB") && notes.get(0).contains("memory limitation"), notes.get(0));
        BackendChecks.validate(GPU, capped, 1); // and the check then passes
    }

    @Test
    void aMaximumTheUserGaveIsLoweredInOneProcessWithNcclTestsLine() {
        // nccl-tests lowers a given maxBytes too (common.cu: "Reducing maxBytes to %ld due to memory limitation")
        List<String> notes = new ArrayList<>();
        RunSpec lowered = SpecForBackend.reduceGiven(spec(8 * GIB, "flag", 1), GPU, 1, true, notes);
        assertEquals(4 * GIB, lowered.maxBytes());
        assertEquals(1, notes.size());
        assertTrue(notes.get(0).startsWith("Reducing maxBytes to " + 4 * GIB + " due to memory limitation"), notes.get(0));
        BackendChecks.validate(GPU, lowered, 1);
    }

    @Test
    void aMaximumTheUserGaveInAJobOfSeveralProcessesIsRefusedWithWhatFits() {
        List<String> notes = new ArrayList<>();
        RunSpec asked = spec(8 * GIB, "flag", 1);
        assertSame(asked, SpecForBackend.capToDevice(asked, GPU, notes));
        // each host's memory may differ: one host must not lower -e for itself alone
        assertSame(asked, SpecForBackend.reduceGiven(asked, GPU, 1, false, notes));
        NcclbenchException e = assertThrows(NcclbenchException.class, () -> BackendChecks.validate(GPU, asked, 1));
        assertTrue(e.getMessage().contains("-e 4 GiB fits") && e.getMessage().contains("each GPU has"), e.getMessage());
    }

    @Test
    void threadsEachDriveTheirOwnGpuSoTheyDoNotShareTheRoom() {
        BackendChecks.validate(GPU, spec(4 * GIB, "flag", 8), 8);
    }

    @Test
    void anEndAboveTheSocketBackendsLimitIsLoweredToItInEveryProcess() {
        // "-e 8G", in most nccl-tests command lines: the per-buffer limit is the same on every host, so a job of several
        // processes lowers it too (memory stays per host and is not judged here)
        List<String> notes = new ArrayList<>();
        Backend socket = new dev.ncclbench.backend.socket.SocketBackend();
        RunSpec lowered = SpecForBackend.reduceGiven(spec(8 * GIB, "flag", 1), socket, 4, false, notes);
        assertEquals(socket.maxBytes(), lowered.maxBytes());
        assertTrue(notes.get(0).startsWith("Reducing maxBytes to " + socket.maxBytes() + " due to memory limitation")
                && notes.get(0).contains("the socket backend sweeps up to 1 GiB per buffer"), notes.get(0));
    }
}
