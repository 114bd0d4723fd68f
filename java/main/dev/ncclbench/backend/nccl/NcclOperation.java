package dev.ncclbench.backend.nccl;

import dev.ncclbench.backend.Call;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.collective.Kind;
import org.bytedeco.cuda.cudart.CUgraphExec_st;
import org.bytedeco.cuda.cudart.CUgraph_st;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.javacpp.BytePointer;

/**
 * One collective at one size and placement over the GPUs of one {@link NcclRankComm}, as nccl-tests'
 * startColl/completeColl/BenchTime do it: the comm's max-size buffers shifted per call, one group over
 * the -g GPUs per call, boundary events per timed iteration (created before the loop), ThreadLocal graph
 * capture of the timed loop, a drain that polls for async errors and aborts every local communicator,
 * and the check on the device ({@link DeviceData}).
 */
final class NcclOperation implements Operation {
    private final NcclRankComm rc;
    private final Call call;
    private final Counts counts;
    private final String name;
    private final int root;
    private final int eb;
    private final long sendBytes;
    private final long recvBytes;
    private final DeviceData[] data;
    /** Built once: the watchdog's step, and the buffer shift's stride and period (a division), not per call. */
    private final String watchStep;
    private final long shiftBytes;
    private final long shiftSteps;
    /** nccl-tests' -u: both buffers start this many bytes in (unalign elements of this call's type), padded for it. */
    private final long unalignBytes;
    /** Per GPU: the byte offset of this rank's slot (in place) and a pointer reused by every call. */
    private final long[] sendSlot;
    private final long[] recvSlot;
    private final BytePointer[] sendAt;
    private final BytePointer[] recvAt;
    /** -I: the timed loop's events, null without -I or under capture. */
    private LoopEvents events;
    private boolean capturing;
    private CUgraphExec_st[] graphs;
    private CUgraph_st[] graphSources;

    NcclOperation(NcclRankComm rc, Call call) {
        this.rc = rc;
        this.call = call;
        this.counts = call.counts();
        this.name = call.collective().name();
        this.root = Math.max(call.root(), 0);
        this.eb = call.type().bytes();
        NcclCalls.ncclType(call.type()); // refuses an unsupported type before anything is allocated
        this.sendBytes = counts.sendCount() * eb;
        this.recvBytes = counts.recvCount() * eb;
        int g = rc.devices.length;
        data = new DeviceData[g];
        sendSlot = new long[g];
        recvSlot = new long[g];
        sendAt = new BytePointer[g];
        recvAt = new BytePointer[g];
        for (int i = 0; i < g; i++) {
            device(i);
            rc.sendBase(i, Math.max(sendBytes, recvBytes));
            data[i] = new DeviceData(rc.kernels[i], rc.streams[i], call.type(), call.op());
            int rank = rc.firstRank + i;
            sendSlot[i] = call.inPlace() ? counts.sendInPlaceOffset() * rank * eb : 0;
            recvSlot[i] = call.inPlace() ? counts.recvInPlaceOffset() * rank * eb : 0;
        }
        this.watchStep = name + " " + counts.sizeBytes(call.type()) + " B";
        this.shiftBytes = Math.max(sendBytes, recvBytes);
        this.unalignBytes = (long) rc.spec.ncclTests().flags().unalign() * eb;
        this.shiftSteps = BufferShift.steps(sendBytes, recvBytes, rc.bufferBytes());
    }

    private void device(int i) {
        NcclRuntime.checkCuda(cudart.cudaSetDevice(rc.devices[i]), "cudaSetDevice");
    }

    /** GPU i's send pointer for call number {@code index}: nccl-tests' shift, and in place the rank's slot of recv. */
    private BytePointer send(int i, long index) {
        BytePointer base = call.inPlace() ? rc.recvBase(i, 0) : rc.sendBase(i, 0);
        if (sendAt[i] == null || sendAt[i].address() != base.address()) {
            sendAt[i] = new BytePointer(base); // the comm's buffers were replaced by larger ones (never below -e)
        }
        return sendAt[i].position(shiftBytes * (index % shiftSteps) + sendSlot[i] + unalignBytes);
    }

    private BytePointer recv(int i, long index) {
        BytePointer base = rc.recvBase(i, 0);
        if (recvAt[i] == null || recvAt[i].address() != base.address()) {
            recvAt[i] = new BytePointer(base);
        }
        return recvAt[i].position(shiftBytes * (index % shiftSteps) + recvSlot[i] + unalignBytes);
    }

    @Override
    public void fill() {
        for (int i = 0; i < data.length; i++) {
            device(i);
            data[i].fill(send(i, 0), counts.sendCount(), recv(i, 0), counts.recvCount(), rc.firstRank + i);
        }
    }

    @Override
    public void launch() {
        launch(0);
    }

    /** One call over every GPU of this thread: grouped only when there are several, as nccl-tests does. */
    @Override
    public void launch(int index) {
        int g = data.length;
        rc.refuseIfAborted(watchStep);
        try {
            rc.watchdog.arm(rc.firstRank, watchStep);
            if (g > 1) {
                NcclRuntime.check(nccl.ncclGroupStart(), "ncclGroupStart");
            }
            for (int i = 0; i < g; i++) {
                int r = NcclCalls.run(call.collective(), NcclRuntime.symbols, send(i, index), recv(i, index),
                        counts.paramCount(), call.type(), call.op(), root, rc.firstRank + i, rc.nranks, rc.comms[i],
                        rc.streams[i]);
                if (!NcclStatus.healthy(r)) {
                    NcclRuntime.check(r, name);
                }
            }
            if (g > 1) {
                NcclRuntime.check(nccl.ncclGroupEnd(), name);
            }
        } catch (RuntimeException e) {
            abandonCapture();
            throw e;
        } finally {
            rc.watchdog.disarm();
        }
    }

    @Override
    public void groupStart() {
        NcclRuntime.check(nccl.ncclGroupStart(), "ncclGroupStart");
    }

    @Override
    public void groupEnd() {
        rc.watchdog.arm(rc.firstRank, name + " (group of -m calls)");
        try {
            NcclRuntime.check(nccl.ncclGroupEnd(), "ncclGroupEnd");
        } catch (RuntimeException e) {
            abandonCapture();
            throw e;
        } finally {
            rc.watchdog.disarm();
        }
    }

    /** Creates the loop's events now, outside the timed region; none under graph capture. */
    @Override
    public void beginTimed(int iters, boolean paired) {
        destroyEvents();
        if (!capturing) {
            events = new LoopEvents(rc.devices, rc.streams, iters, paired);
        }
    }

    @Override
    public void markStart(int iter) {
        if (events != null) {
            events.markStart(iter);
        }
    }

    @Override
    public void markStop(int iter) {
        if (events != null) {
            events.markStop(iter);
        }
    }

    /** Waits for every stream, polling ncclCommGetAsyncError; -T (default 300 s) without completion is a hang. */
    @Override
    public void drain() {
        long limitS = BlockedCallWatchdog.limitSeconds(rc.spec);
        long start = System.nanoTime();
        int[] async = new int[1];
        boolean[] done = new boolean[data.length];
        int remaining = data.length;
        while (remaining > 0) {
            for (int i = 0; i < data.length; i++) {
                if (done[i]) {
                    continue;
                }
                rc.refuseIfAborted(name + " (waiting for the GPU)");
                int q = cudart.cudaStreamQuery(rc.streams[i]);
                if (q == CudaStatus.SUCCESS) {
                    done[i] = true;
                    remaining--;
                    continue;
                }
                if (q != CudaStatus.NOT_READY) {
                    rc.abandon();
                    NcclRuntime.checkCuda(q, "stream of cuda:" + rc.devices[i]);
                }
                NcclRuntime.check(nccl.ncclCommGetAsyncError(rc.comms[i], async), "ncclCommGetAsyncError");
                if (!NcclStatus.healthy(async[0])) {
                    int code = async[0];
                    String why = name + " on rank " + (rc.firstRank + i) + " failed asynchronously: "
                            + NcclStatus.name(code) + " (" + code + "); communicators aborted";
                    rc.abort(NcclStatus.exitCode(code), why, "check the NCCL log of every rank (" + rc.logFiles() + ")");
                }
                if (System.nanoTime() - start > limitS * 1_000_000_000L) {
                    rc.abort(BlockedCallWatchdog.hang(rc.firstRank + i, name, limitS) + "; communicators aborted");
                }
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Per-iteration device time of the last timed loop, for all -m calls of an iteration together. Read here, after
     * the sweep took the loop's time, not in drain: as nccl-tests, "exclude per-iteration result processing from the
     * reported time" (common.cu), about 20 driver calls per loop.
     */
    @Override
    public double[] batchSamplesUs() {
        return events == null ? null : events.samples();
    }

    @Override
    public long verify() {
        if (call.inPlace() && !definedInPlace(call.collective().kind())) {
            return -1;
        }
        long wrong = 0;
        for (int i = 0; i < data.length; i++) {
            device(i);
            wrong += data[i].verify(call.collective(), recv(i, 0), counts, rc.nranks, rc.firstRank + i, root);
        }
        return wrong;
    }

    /** NCCL gives in-place alltoall and sendrecv no defined result: nccl-tests prints N/A. */
    private static boolean definedInPlace(Kind kind) {
        return switch (kind) {
            case ALLTOALL, SENDRECV, ALLTOALLV -> false;
            case ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER, BROADCAST, REDUCE, GATHER, SCATTER, HYPERCUBE -> true;
        };
    }

    /** -G: ThreadLocal capture (as nccl-tests: other threads may capture or allocate meanwhile). */
    @Override
    public boolean beginCapture() {
        destroyGraphs();
        for (int i = 0; i < data.length; i++) {
            device(i);
            int r = cudart.cudaStreamBeginCapture(rc.streams[i], cudart.cudaStreamCaptureModeThreadLocal);
            if (r != 0) {
                abandonCapture();
                NcclRuntime.checkCuda(r, "cudaStreamBeginCapture");
            }
            capturing = true;
        }
        return true;
    }

    @Override
    public void endCapture() {
        int g = data.length;
        graphSources = new CUgraph_st[g];
        graphs = new CUgraphExec_st[g];
        capturing = false;
        for (int i = 0; i < g; i++) {
            device(i);
            graphSources[i] = new CUgraph_st();
            int r = cudart.cudaStreamEndCapture(rc.streams[i], graphSources[i]);
            if (r != 0) {
                endCaptureQuietly(i + 1);
                NcclRuntime.checkCuda(r, "cudaStreamEndCapture");
            }
        }
        for (int i = 0; i < g; i++) {
            device(i);
            graphs[i] = new CUgraphExec_st();
            NcclRuntime.checkCuda(cudart.cudaGraphInstantiate(graphs[i], graphSources[i], 0L), "cudaGraphInstantiate");
        }
    }

    /** A failed call while capturing: end every stream's capture so the streams are usable again. */
    private void abandonCapture() {
        if (capturing) {
            capturing = false;
            endCaptureQuietly(0);
        }
    }

    private void endCaptureQuietly(int from) {
        for (int i = from; i < data.length; i++) {
            cudart.cudaSetDevice(rc.devices[i]);
            CUgraph_st g = new CUgraph_st();
            if (cudart.cudaStreamEndCapture(rc.streams[i], g) == 0 && !g.isNull()) {
                cudart.cudaGraphDestroy(g);
            }
        }
    }

    @Override
    public void launchGraph() {
        if (graphs == null) {
            throw new UnsupportedOperationException("no graph captured");
        }
        for (int i = 0; i < graphs.length; i++) {
            device(i);
            NcclRuntime.checkCuda(cudart.cudaGraphLaunch(graphs[i], rc.streams[i]), "cudaGraphLaunch");
        }
    }

    private void destroyGraphs() {
        if (graphs != null) {
            for (int i = 0; i < graphs.length; i++) {
                cudart.cudaSetDevice(rc.devices[i]);
                if (graphs[i] != null) {
                    cudart.cudaGraphExecDestroy(graphs[i]);
                }
                if (graphSources[i] != null) {
                    cudart.cudaGraphDestroy(graphSources[i]);
                }
            }
            graphs = null;
            graphSources = null;
        }
    }

    private void destroyEvents() {
        if (events != null) {
            events.close();
            events = null;
        }
    }

    /** Buffers belong to the comm; nothing is in flight after a drain, and after an abort nothing waits. */
    @Override
    public void close() {
        if (rc.aborted()) {
            return;
        }
        abandonCapture();
        destroyGraphs();
        destroyEvents();
        for (DeviceData d : data) {
            d.close();
        }
    }
}
