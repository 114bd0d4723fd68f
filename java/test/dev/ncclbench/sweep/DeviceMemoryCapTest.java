package dev.ncclbench.sweep;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendChecks;
import dev.ncclbench.env.Host;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.backend.MemoryBudget;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.backend.Readiness;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.spec.MaxBytesSource;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.SweepProfile;
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
 * -e once the backend is known ({@link MaxBytes}). A GPU backend's per-device budget (nccl-tests' maxBytes cap, here
 * for a 16 GiB GPU with -c: 14 GiB / 3): the default -e is lowered to the largest size that fits with a header line, an -e the user gave is lowered as nccl-tests lowers it when this
 * process is the whole job and refused with the -e that fits in a job of several processes, and the
 * local ranks (threads, each with its own GPUs) do not share it. The backend here only answers memory().
 */
class DeviceMemoryCapTest {
    private static final long GIB = 1L << 30;
    private static final long CAP = 14 * GIB / 3;

    private static RunSpec spec(long max, MaxBytesSource source, int threads) {
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

    /** -e not given: the asked spec carries no -e until MaxBytes resolves it for the backend. */
    private static RunSpec notGiven(SweepProfile profile) {
        RunSpec asked = spec(1, MaxBytesSource.FLAG, 1).withRange(profile.range(null, null, null, 1 << 20));
        assertTrue(asked.range().max().isEmpty(), "no -e before the backend is known");
        return asked;
    }

    private static final Backend GPU = new Backend() {
        public String name() { return "gpu"; }
        public int autoOrder() { return 0; }
        public Set<Capability> capabilities() { return EnumSet.of(Capability.DEVICE_MEMORY); }
        public boolean supports(DataType type, ReduceOp op) { return true; }
        public MemoryBudget memory(RunSpec spec) {
            return MemoryBudget.perDevice("device memory of the smallest GPU (16 GiB)", 3, CAP * 3, "as nccl-tests");
        }
        public Readiness readiness(RunSpec spec, Host host) { return Readiness.ready("test"); }
        public List<RankComm> open(RunSpec spec, List<ControlPlane> planes, int localRank, Host host) { return List.of(); }
    };

    @Test
    void theDefaultMaximumIsLoweredToTheGpusRoomWithOneHeaderLine() {
        List<String> notes = new ArrayList<>();
        RunSpec capped = MaxBytes.resolve(notGiven(SweepProfile.SWEEP), GPU, SweepProfile.SWEEP, 1, true, notes);
        // the largest size of the sweep that fits (8 x 2^k), as a lowered -e the user gave
        assertEquals(4 * GIB, capped.range().maxBytes());
        assertEquals(MaxBytesSource.FITTED, capped.range().maxBytesSource());
        assertEquals(1, notes.size());
        assertTrue(notes.get(0).startsWith("-e defaults to 4 GiB on the gpu backend, lowered from 8 GiB due to memory"
                + " limitation: 3 buffers per GPU in device memory"), notes.get(0));
        BackendChecks.validate(GPU, capped, 1); // and the check then passes
    }

    @Test
    void aMaximumTheUserGaveIsLoweredInOneProcessWithNcclTestsLine() {
        // nccl-tests lowers a given maxBytes too (common.cu: "Reducing maxBytes to %ld due to memory limitation")
        List<String> notes = new ArrayList<>();
        RunSpec lowered = MaxBytes.resolve(spec(8 * GIB, MaxBytesSource.FLAG, 1), GPU, SweepProfile.SWEEP, 1, true, notes);
        assertEquals(4 * GIB, lowered.range().maxBytes());
        assertEquals(MaxBytesSource.REDUCED, lowered.range().maxBytesSource());
        assertEquals(1, notes.size());
        assertTrue(notes.get(0).startsWith("Reducing maxBytes to " + 4 * GIB + " due to memory limitation"), notes.get(0));
        BackendChecks.validate(GPU, lowered, 1);
    }

    @Test
    void aMaximumTheUserGaveInAJobOfSeveralProcessesIsRefusedWithWhatFits() {
        List<String> notes = new ArrayList<>();
        RunSpec asked = spec(8 * GIB, MaxBytesSource.FLAG, 1);
        // each host's memory may differ: one host must not lower -e for itself alone
        assertSame(asked, MaxBytes.resolve(asked, GPU, SweepProfile.SWEEP, 1, false, notes));
        NcclbenchException e = assertThrows(NcclbenchException.class, () -> BackendChecks.validate(GPU, asked, 1));
        assertTrue(e.getMessage().contains("-e 4 GiB fits") && e.getMessage().contains("each GPU has"), e.getMessage());
    }

    @Test
    void aHostMemoryBackendTakesTheCommandsHostDefaultAndPreflightItsShorterOne() {
        Backend socket = new dev.ncclbench.backend.socket.SocketBackend();
        List<String> notes = new ArrayList<>();
        RunSpec sweep = MaxBytes.resolve(notGiven(SweepProfile.SWEEP), socket, SweepProfile.SWEEP, 1, true, notes);
        assertEquals(128L << 20, sweep.range().maxBytes(), notes.toString());
        assertEquals(MaxBytesSource.DEFAULT, sweep.range().maxBytesSource(), "the socket backend's own default, not lowered");
        RunSpec preflight = MaxBytes.resolve(notGiven(SweepProfile.PREFLIGHT), socket, SweepProfile.PREFLIGHT, 1,
                true, new ArrayList<>());
        assertEquals(64L << 20, preflight.range().maxBytes());
        // the same -e on a GPU backend is the profile's GPU default
        assertEquals(1 * GIB, MaxBytes.resolve(notGiven(SweepProfile.PREFLIGHT), GPU, SweepProfile.PREFLIGHT, 1,
                true, new ArrayList<>()).range().maxBytes());
    }

    @Test
    void threadsEachDriveTheirOwnGpuSoTheyDoNotShareTheRoom() {
        BackendChecks.validate(GPU, spec(4 * GIB, MaxBytesSource.FLAG, 8), 8);
    }

    @Test
    void anEndAboveTheSocketBackendsLimitIsLoweredToItInEveryProcess() {
        // "-e 8G", in most nccl-tests command lines: the per-buffer limit is the same on every host, so a job of several
        // processes lowers it too (memory stays per host and is not judged here)
        List<String> notes = new ArrayList<>();
        Backend socket = new dev.ncclbench.backend.socket.SocketBackend();
        RunSpec lowered = MaxBytes.resolve(spec(8 * GIB, MaxBytesSource.FLAG, 1), socket, SweepProfile.SWEEP, 4, false, notes);
        assertEquals(socket.maxBytes(), lowered.range().maxBytes());
        assertTrue(notes.get(0).startsWith("Reducing maxBytes to " + socket.maxBytes() + " due to memory limitation")
                && notes.get(0).contains("the socket backend sweeps up to 1 GiB per buffer"), notes.get(0));
    }

    @Test
    void theMemoryChecksHintNamesOnlyASizeOfTheSweep() {
        // -b 8G -e 16G: nothing from -b up fits the 14 GiB / 3 of each buffer, though 4 GiB below -b would; -e 4G
        // would then be below -b, so the refusal names no -e (a lowered default may take -b down, a hint may not)
        RunSpec big = spec(16 * GIB, MaxBytesSource.FLAG, 1).withRange(new RunSpec.SizeRange(8 * GIB, 16 * GIB,
                MaxBytesSource.FLAG, 2, 1 << 20));
        assertEquals(4 * GIB, BackendChecks.largestFitting(GPU, big, 1, true));
        NcclbenchException e = assertThrows(NcclbenchException.class, () -> BackendChecks.validate(GPU, big, 1));
        assertTrue(e.getMessage().startsWith("-e 16 GiB needs") && !e.getMessage().contains("fits"), e.getMessage());
        // from -b 8 the sweep's own 4 GiB fits and is named
        NcclbenchException named = assertThrows(NcclbenchException.class,
                () -> BackendChecks.validate(GPU, spec(16 * GIB, MaxBytesSource.FLAG, 1), 1));
        assertTrue(named.getMessage().contains(": -e 4 GiB fits,"), named.getMessage());
    }
}
