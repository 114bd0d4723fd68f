package dev.ncclbench.sweep;

import dev.ncclbench.backend.Call;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.results.RankInfo;
import dev.ncclbench.results.ResultRow;
import dev.ncclbench.spec.RunSpec;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order of calls the engine makes on a backend, held against nccl-tests' BenchTime and TimeTest
 * (src/common.cu): which calls are timed, where the per-iteration marks go, what -w 0, -z 3, -m and -G do.
 * The backend here only records what it is asked (the engine's own contract, not a stand-in for NCCL).
 */
class SweepEngineTimingTest {
    private final List<String> log = new ArrayList<>();
    private final List<ResultRow> rows = new ArrayList<>();

    private RunSpec spec(int iters, int warmup, int agg, int blocking, int graph, long min, long max) {
        return spec(iters, warmup, agg, blocking, graph, min, max, 1);
    }

    private RunSpec spec(int iters, int warmup, int agg, int blocking, int graph, long min, long max, int perIter) {
        return RunSpec.builder().collectives(List.of("all_reduce"))
                .minBytes(min).maxBytes(max).maxBytesSource(dev.ncclbench.spec.MaxBytesSource.FLAG).stepFactor(2).stepBytes(1 << 20)
                .iters(iters).warmupIters(warmup).aggIters(agg).repeat(1)
                .checkIters(1).op(ReduceOp.SUM).type(DataType.FLOAT).root(0)
                .average(1).blocking(blocking).timeoutSeconds(0)
                .gpusPerThread(1).threads(1).cudaGraph(graph).perIterTiming(perIter)
                .backend("nccl").localRanks(1)
                .jsonFile(Path.of("r.json")).outDir(Path.of("."))
                .socketsPerPeer(1).socketIfname(null).socketAlgo("auto").socketChunk(0)
                .build();
    }

    private List<String> run(RunSpec spec) {
        log.clear();
        rows.clear();
        RankComm comm = new Recorder();
        ControlPlane plane = new ControlPlane() {
            public int rank() { return 0; }
            public int nranks() { return 1; }
            public byte[][] allGather(String tag, byte[] mine) {
                if (tag.endsWith(": start") || tag.contains("-z barrier") || tag.endsWith(": graph")) {
                    log.add("barrier");
                }
                return new byte[][] {mine};
            }
            public void close() { }
        };
        SweepListener quiet = new SweepListener() {
            public void beginCollective(String c) { }
            public void row(ResultRow row, int a, int b) { rows.add(row); }
            public void endCollective(String c) { }
        };
        new SweepEngine(spec, comm, plane, quiet, () -> { }).run();
        return log;
    }

    /** The calls of the first measured placement (after the warm-up's and up to its check). */
    private static List<String> firstPlacement(List<String> log) {
        int from = log.indexOf("prepare 32 in-place=false");
        int to = log.indexOf("verify");
        return log.subList(from, to + 1);
    }

    @Test
    void withoutWarmUpTheFirstCallIsStillUntimedAndMarksBoundEveryIteration() {
        List<String> p = firstPlacement(run(spec(3, 0, 1, 0, 0, 32, 32)));
        assertEquals(List.of("prepare 32 in-place=false", "fill", "launch 0", "drain", "barrier", "timed 3 paired=false",
                "start 0", "launch 0", "start 1", "launch 1", "start 2", "launch 2", "start 3", "drain",
                "samples", "fill", "launch 0", "drain", "verify"), p);
    }

    @Test
    void withoutMinusIAnAsynchronousBackendRecordsNoEventsAndReportsNoSamples() {
        List<String> p = firstPlacement(run(spec(3, 0, 1, 0, 0, 32, 32, 0)));
        assertTrue(p.stream().noneMatch(l -> l.startsWith("timed")), p.toString());
        assertEquals(null, rows.get(0).samplesOutOfPlace(), "host times of asynchronous launches are not samples");
    }

    @Test
    void warmUpVisitsEverySizeDoublingWhateverTheStepBeforeTheSweep() {
        List<String> all = run(spec(1, 2, 1, 0, 0, 8, 64));
        List<String> warm = all.subList(0, all.indexOf("fill") - 1);
        assertEquals(List.of("prepare 8 in-place=false", "launch 0", "launch 1", "drain",
                "prepare 16 in-place=false", "launch 0", "launch 1", "drain",
                "prepare 32 in-place=false", "launch 0", "launch 1", "drain",
                "prepare 64 in-place=false", "launch 0", "launch 1", "drain"), warm);
    }

    @Test
    void aggregatedCallsShareOneGroupAndOneMarkAndShiftByCallIndex() {
        List<String> p = firstPlacement(run(spec(2, 0, 3, 0, 0, 32, 32)));
        int t = p.indexOf("timed 2 paired=false");
        assertEquals(List.of("group", "start 0", "launch 0", "launch 1", "launch 2", "end group",
                "group", "start 1", "launch 3", "launch 4", "launch 5", "end group", "start 2", "drain"), p.subList(t + 1, t + 15));
    }

    @Test
    void z3WaitsAndMarksTheStopBeforeTheUntimedBarrier() {
        List<String> p = firstPlacement(run(spec(2, 0, 1, 3, 0, 32, 32)));
        int t = p.indexOf("timed 2 paired=true");
        assertEquals(List.of("start 0", "launch 0", "drain", "stop 0", "barrier", "start 1", "launch 1", "drain", "stop 1",
                "barrier", "drain"), p.subList(t + 1, t + 12));
    }

    @Test
    void graphModeCapturesTheTimedLoopAndTimesOnlyTheReplays() {
        List<String> p = firstPlacement(run(spec(2, 0, 1, 0, 2, 32, 32)));
        int c = p.indexOf("capture");
        assertTrue(c > p.indexOf("barrier"), p.toString());
        assertEquals(List.of("capture", "timed 2 paired=false", "start 0", "launch 0", "start 1", "launch 1", "start 2",
                "end capture", "barrier", "replay", "replay", "drain"), p.subList(c, c + 12));
        assertEquals(null, rows.get(0).samplesOutOfPlace(), "graph replays have no per-iteration samples");
    }

    /** Host-timed: untimed calls after the start barrier for about 0.5 ms by the warm-up's cost model, none above 1 MiB. */
    @Test
    void theWakeCallsAfterTheStartBarrierLastAboutHalfAMillisecondUpTo1MiB() {
        assertEquals(49, SweepEngine.wakeCalls(8, 2));
        assertEquals(11, SweepEngine.wakeCalls(32 << 10, 2));
        assertEquals(1, SweepEngine.wakeCalls(512 << 10, 2));
        assertEquals(1, SweepEngine.wakeCalls(1 << 20, 2));
        assertEquals(0, SweepEngine.wakeCalls((1 << 20) + 8, 2));
    }

    /** Up to 8 ranks as measured; beyond, a call is log2(n) steps and fewer calls last the 0.5 ms (1024: 14, not 49). */
    @Test
    void theWakeCallsOfALargeJobFallWithItsSteps() {
        for (int n = 1; n <= 8; n++) {
            assertEquals(49, SweepEngine.wakeCalls(8, n), n + " ranks");
        }
        assertEquals(37, SweepEngine.wakeCalls(8, 16));
        assertEquals(14, SweepEngine.wakeCalls(8, 1024));
        assertEquals(11, SweepEngine.wakeCalls(8, 8192));
        assertEquals(1, SweepEngine.wakeCalls(512 << 10, 8192), "at least one");
        assertEquals(0, SweepEngine.wakeCalls((1 << 20) + 8, 8192));
    }

    /**
     * Without -I a GPU backend's rows are host time: before the first timed size the call path runs compiled, i.e.
     * after {@link CallPathWarmup#CALLS} untimed launch + drain at the smallest size, both placements.
     */
    @Test
    void hostTimedGpuRowsComeAfterTheCallPathWarmUpAtTheSmallestSize() {
        List<String> all = run(spec(2, 1, 1, 0, 0, 8, 64, 0));
        int firstTimed = all.indexOf("fill");
        List<String> before = all.subList(0, firstTimed);
        int from = before.indexOf("prepare 8 in-place=true");
        assertTrue(from > 0, before.subList(0, Math.min(20, before.size())).toString());
        assertEquals("prepare 8 in-place=false", before.get(from - 1), "both placements, at the smallest size");
        assertEquals("prepare 8 in-place=false", before.get(before.size() - 1), "then the first timed placement");
        List<String> calls = before.subList(from + 1, before.size() - 1);
        assertEquals(2 * CallPathWarmup.CALLS, calls.size(), "launch + drain each, nothing else");
        assertEquals(List.of("launch 0", "drain", "launch 1", "drain"), calls.subList(0, 4));
        assertTrue(all.indexOf("prepare 64 in-place=false") < from, "after nccl-tests' -w warm-up");
    }

    @Test
    void withMinusIOrMinusGTheEventsOrReplaysTimeTheRowsAndThereIsNoCallPathWarmUp() {
        for (RunSpec s : List.of(spec(2, 0, 1, 0, 0, 8, 8, 1), spec(2, 0, 1, 0, 1, 8, 8, 0))) {
            List<String> all = run(s);
            assertTrue(all.stream().filter(l -> l.startsWith("launch")).count() < 20, all.toString());
        }
    }

    /** nccl-tests reads the events after taking the loop's time: the engine asks for them after the last drain. */
    @Test
    void perIterationSamplesAreAskedForAfterTheLoopsLastDrain() {
        List<String> p = firstPlacement(run(spec(2, 0, 1, 0, 0, 32, 32, 1)));
        int samples = p.indexOf("samples");
        assertEquals(List.of("start 2", "drain", "samples"), p.subList(samples - 2, samples + 1));
    }

    private final class Recorder implements RankComm {
        public int rank() { return 0; }
        public int nranks() { return 1; }
        public RankInfo info() { return new RankInfo(0, 0, "h", 1, "recorder"); }
        public Set<Capability> capabilities() { return EnumSet.allOf(Capability.class); }
        public void close() { }

        public Operation prepare(Call call) {
            log.add("prepare " + call.counts().sizeBytes(call.type()) + " in-place=" + call.inPlace());
            return new Operation() {
                private boolean capturing;
                public void fill() { log.add("fill"); }
                public void launch() { log.add("launch"); }
                public void launch(int call) { log.add("launch " + call); }
                public void drain() { log.add("drain"); }
                public long verify() { log.add("verify"); return 0; }
                public void groupStart() { log.add("group"); }
                public void groupEnd() { log.add("end group"); }
                public void beginTimed(int iters, boolean paired) { log.add("timed " + iters + " paired=" + paired); }
                public void markStart(int i) { log.add("start " + i); }
                public void markStop(int i) { log.add("stop " + i); }
                public boolean beginCapture() { capturing = true; log.add("capture"); return true; }
                public void endCapture() { capturing = false; log.add("end capture"); }
                public void launchGraph() { log.add("replay"); }
                public double[] batchSamplesUs() { log.add("samples"); return null; }
                public void close() { }
            };
        }
    }
}
