package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.BackendException;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.collective.DataPattern;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import org.bytedeco.cuda.cudart.CUevent_st;
import org.bytedeco.cuda.cudart.CUgraphExec_st;
import org.bytedeco.cuda.cudart.CUgraph_st;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * One collective at one size and placement over the GPUs of one {@link NcclRankComm}: device buffers,
 * grouped launches, a drain that polls for async errors under the -T watchdog, CUDA-event samples per
 * launch, -G graph capture, and verification against {@link DataPattern}.
 */
final class NcclOperation implements Operation {
    private static final long CHUNK = 64L << 20;
    private static final int CUDA_NOT_READY = 600;

    private final NcclRankComm rc;
    private final Collective coll;
    private final Counts counts;
    private final DataType type;
    private final ReduceOp op;
    private final int root;
    private final boolean inPlace;
    private final int eb;
    private final Pointer[] base;
    private final BytePointer[] send;
    private final BytePointer[] recv;
    private final List<CUevent_st[]> events = new ArrayList<>();
    private int launchesInBatch;
    private double[] lastSamples;
    private CUgraphExec_st[] graphs;
    private CUgraph_st[] graphSources;

    NcclOperation(NcclRankComm rc, Collective coll, Counts counts, DataType type, ReduceOp op, int root, boolean inPlace) {
        this.rc = rc;
        this.coll = coll;
        this.counts = counts;
        this.type = type;
        this.op = op;
        this.root = Math.max(root, 0);
        this.inPlace = inPlace;
        this.eb = type.bytes();
        int g = rc.devices.length;
        base = new Pointer[g * 2];
        send = new BytePointer[g];
        recv = new BytePointer[g];
        for (int i = 0; i < g; i++) {
            int rank = rc.firstRank + i;
            device(i);
            long sendBytes = Math.max(counts.sendCount() * eb, 1);
            long recvBytes = Math.max(counts.recvCount() * eb, 1);
            if (inPlace) {
                Pointer b = alloc(Math.max(sendBytes, recvBytes));
                base[2 * i] = b;
                send[i] = new BytePointer(b).position(counts.sendInPlaceOffset() * rank * eb);
                recv[i] = new BytePointer(b).position(counts.recvInPlaceOffset() * rank * eb);
            } else {
                base[2 * i] = alloc(sendBytes);
                base[2 * i + 1] = alloc(recvBytes);
                send[i] = new BytePointer(base[2 * i]);
                recv[i] = new BytePointer(base[2 * i + 1]);
            }
        }
    }

    private void device(int i) {
        NcclRuntime.checkCuda(cudart.cudaSetDevice(rc.devices[i]), "cudaSetDevice");
    }

    /** ncclMemAlloc where the NCCL has it (registration-friendly memory, needed for NVLS), else cudaMalloc. */
    private static Pointer alloc(long bytes) {
        Pointer p = new Pointer();
        if (NcclRuntime.hasMemAlloc) {
            NcclRuntime.check(nccl.ncclMemAlloc(p, bytes), "ncclMemAlloc(" + bytes + ")");
        } else {
            NcclRuntime.checkCuda(cudart.cudaMalloc(p, bytes), "cudaMalloc(" + bytes + ")");
        }
        return p;
    }

    @Override
    public void fill() {
        for (int i = 0; i < send.length; i++) {
            int rank = rc.firstRank + i;
            device(i);
            // poison the output (bytes 0xFF: -1 or NaN in every type), then write the input
            NcclRuntime.checkCuda(cudart.cudaMemset(recv[i], 0xFF, counts.recvCount() * eb), "cudaMemset");
            for (long start = 0; start < counts.sendCount(); start += CHUNK / eb) {
                int n = (int) Math.min(CHUNK / eb, counts.sendCount() - start);
                ByteBuffer b = ByteBuffer.allocateDirect(n * eb).order(ByteOrder.LITTLE_ENDIAN);
                for (int k = 0; k < n; k++) {
                    HostElements.put(b, type, DataPattern.input(rank, start + k, op));
                }
                b.flip();
                BytePointer host = new BytePointer(b);
                BytePointer dst = new BytePointer(send[i]).position(send[i].position() + start * eb);
                NcclRuntime.checkCuda(cudart.cudaMemcpy(dst, host, (long) n * eb, cudart.cudaMemcpyHostToDevice), "cudaMemcpy H2D");
            }
        }
    }

    @Override
    public void launch() {
        CUevent_st[] ev = null;
        if (graphs == null) {
            ev = event(launchesInBatch);
            device(0);
            cudart.cudaEventRecord(ev[0], rc.streams[0]);
        }
        NcclRuntime.check(nccl.ncclGroupStart(), "ncclGroupStart");
        for (int i = 0; i < send.length; i++) {
            call(i);
        }
        NcclRuntime.check(nccl.ncclGroupEnd(), coll.name());
        if (ev != null) {
            device(0);
            cudart.cudaEventRecord(ev[1], rc.streams[0]);
            launchesInBatch++;
        }
    }

    private void call(int i) {
        int rank = rc.firstRank + i;
        int n = rc.nranks;
        int dt = ncclType(type);
        int rop = ncclOp(op);
        long count = counts.paramCount();
        var comm = rc.comms[i];
        var s = rc.streams[i];
        int rc0;
        switch (coll.name()) {
            case "all_reduce": rc0 = nccl.ncclAllReduce(send[i], recv[i], count, dt, rop, comm, s); break;
            case "all_gather": rc0 = nccl.ncclAllGather(send[i], recv[i], count, dt, comm, s); break;
            case "reduce_scatter": rc0 = nccl.ncclReduceScatter(send[i], recv[i], count, dt, rop, comm, s); break;
            case "broadcast": rc0 = nccl.ncclBroadcast(send[i], recv[i], count, dt, root, comm, s); break;
            case "reduce": rc0 = nccl.ncclReduce(send[i], recv[i], count, dt, rop, root, comm, s); break;
            case "alltoall": rc0 = nccl.ncclAlltoAll(send[i], recv[i], count, dt, comm, s); break;
            case "sendrecv":
                rc0 = nccl.ncclSend(send[i], count, dt, (rank + 1) % n, comm, s);
                if (rc0 == 0) {
                    rc0 = nccl.ncclRecv(recv[i], count, dt, (rank - 1 + n) % n, comm, s);
                }
                break;
            case "gather":
                if (NcclRuntime.hasGather) {
                    rc0 = nccl.ncclGather(send[i], recv[i], count, dt, root, comm, s);
                } else {
                    rc0 = gatherBySendRecv(i, rank, n, count, dt, comm, s);
                }
                break;
            case "scatter":
                if (NcclRuntime.hasGather) {
                    rc0 = nccl.ncclScatter(send[i], recv[i], count, dt, root, comm, s);
                } else {
                    rc0 = scatterBySendRecv(i, rank, n, count, dt, comm, s);
                }
                break;
            default:
                throw new BackendException(ExitCode.USAGE, coll.name() + " is not supported by the nccl backend", null);
        }
        NcclRuntime.check(rc0, coll.name());
    }

    // NCCL before 2.28 has no ncclGather/ncclScatter: nccl-tests' send/recv form, inside the caller's group.
    private int gatherBySendRecv(int i, int rank, int n, long count, int dt, org.bytedeco.cuda.nccl.ncclComm comm,
                                 org.bytedeco.cuda.cudart.CUstream_st s) {
        int r = nccl.ncclSend(send[i], count, dt, root, comm, s);
        if (rank == root) {
            for (int p = 0; p < n && r == 0; p++) {
                r = nccl.ncclRecv(new BytePointer(recv[i]).position(recv[i].position() + p * count * eb), count, dt, p, comm, s);
            }
        }
        return r;
    }

    private int scatterBySendRecv(int i, int rank, int n, long count, int dt, org.bytedeco.cuda.nccl.ncclComm comm,
                                  org.bytedeco.cuda.cudart.CUstream_st s) {
        int r = 0;
        if (rank == root) {
            for (int p = 0; p < n && r == 0; p++) {
                r = nccl.ncclSend(new BytePointer(send[i]).position(send[i].position() + p * count * eb), count, dt, p, comm, s);
            }
        }
        return r == 0 ? nccl.ncclRecv(recv[i], count, dt, root, comm, s) : r;
    }

    private CUevent_st[] event(int k) {
        while (events.size() <= k) {
            device(0);
            CUevent_st a = new CUevent_st();
            CUevent_st b = new CUevent_st();
            NcclRuntime.checkCuda(cudart.cudaEventCreate(a), "cudaEventCreate");
            NcclRuntime.checkCuda(cudart.cudaEventCreate(b), "cudaEventCreate");
            events.add(new CUevent_st[] {a, b});
        }
        return events.get(k);
    }

    /** Waits for every stream, polling ncclCommGetAsyncError; -T (spec.Defaults' watchdog) without completion is a hang. */
    @Override
    public void drain() {
        long limitNs = rc.spec.timeoutMillis() * 1_000_000L;
        long start = System.nanoTime();
        int[] async = new int[1];
        for (int i = 0; i < send.length; i++) {
            device(i);
            while (true) {
                int q = cudart.cudaStreamQuery(rc.streams[i]);
                if (q == 0) {
                    break;
                }
                if (q != CUDA_NOT_READY) {
                    NcclRuntime.checkCuda(q, "stream of cuda:" + rc.devices[i]);
                }
                NcclRuntime.check(nccl.ncclCommGetAsyncError(rc.comms[i], async), "ncclCommGetAsyncError");
                if (async[0] != nccl.ncclSuccess && async[0] != 7 /* ncclInProgress */) {
                    NcclRuntime.check(async[0], coll.name() + " on rank " + (rc.firstRank + i) + " (async error)");
                }
                if (System.nanoTime() - start > limitNs) {
                    rc.abort(coll.name() + " on rank " + (rc.firstRank + i) + " made no progress for "
                            + (limitNs / 1_000_000_000L) + " s (-T); communicators aborted");
                }
                Thread.onSpinWait();
            }
        }
        if (launchesInBatch > 0) {
            lastSamples = new double[launchesInBatch];
            float[] ms = new float[1];
            device(0);
            for (int k = 0; k < launchesInBatch; k++) {
                CUevent_st[] ev = events.get(k);
                cudart.cudaEventElapsedTime(ms, ev[0], ev[1]);
                lastSamples[k] = ms[0] * 1000.0;
            }
            launchesInBatch = 0;
        } else {
            lastSamples = null;
        }
    }

    @Override
    public double[] batchSamplesUs() {
        return lastSamples;
    }

    @Override
    public long verify() {
        long wrong = 0;
        for (int i = 0; i < recv.length; i++) {
            int rank = rc.firstRank + i;
            if (!coll.hasOutput(rank, root)) {
                continue;
            }
            device(i);
            for (long start = 0; start < counts.recvCount(); start += CHUNK / eb) {
                int n = (int) Math.min(CHUNK / eb, counts.recvCount() - start);
                ByteBuffer b = ByteBuffer.allocateDirect(n * eb).order(ByteOrder.LITTLE_ENDIAN);
                BytePointer host = new BytePointer(b);
                BytePointer src = new BytePointer(recv[i]).position(recv[i].position() + start * eb);
                NcclRuntime.checkCuda(cudart.cudaMemcpy(host, src, (long) n * eb, cudart.cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
                for (int k = 0; k < n; k++) {
                    double got = HostElements.get(b, type);
                    double want = DataPattern.expected(coll, rank, start + k, counts, rc.nranks, root, op, type);
                    if (!DataPattern.matches(got, want, op, type)) {
                        wrong++;
                    }
                }
            }
        }
        return wrong;
    }

    @Override
    public void groupStart() {
        NcclRuntime.check(nccl.ncclGroupStart(), "ncclGroupStart");
    }

    @Override
    public void groupEnd() {
        NcclRuntime.check(nccl.ncclGroupEnd(), "ncclGroupEnd");
    }

    /** -G: captures {@code calls} launches on every stream into one graph per GPU. */
    @Override
    public boolean captureGraph(int calls) {
        int g = send.length;
        graphs = new CUgraphExec_st[g];
        graphSources = new CUgraph_st[g];
        for (int i = 0; i < g; i++) {
            device(i);
            NcclRuntime.checkCuda(cudart.cudaStreamBeginCapture(rc.streams[i], cudart.cudaStreamCaptureModeGlobal), "cudaStreamBeginCapture");
        }
        for (int c = 0; c < calls; c++) {
            launch();
        }
        for (int i = 0; i < g; i++) {
            device(i);
            graphSources[i] = new CUgraph_st();
            NcclRuntime.checkCuda(cudart.cudaStreamEndCapture(rc.streams[i], graphSources[i]), "cudaStreamEndCapture");
            graphs[i] = new CUgraphExec_st();
            NcclRuntime.checkCuda(cudart.cudaGraphInstantiate(graphs[i], graphSources[i], 0L), "cudaGraphInstantiate");
        }
        return true;
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

    @Override
    public void close() {
        for (int i = 0; i < send.length; i++) {
            device(i);
            cudart.cudaStreamSynchronize(rc.streams[i]);
            if (graphs != null) {
                cudart.cudaGraphExecDestroy(graphs[i]);
                cudart.cudaGraphDestroy(graphSources[i]);
            }
        }
        for (Pointer p : base) {
            if (p != null) {
                if (NcclRuntime.hasMemAlloc) {
                    nccl.ncclMemFree(p);
                } else {
                    cudart.cudaFree(p);
                }
            }
        }
        for (CUevent_st[] ev : events) {
            cudart.cudaEventDestroy(ev[0]);
            cudart.cudaEventDestroy(ev[1]);
        }
    }

    static int ncclType(DataType t) {
        switch (t) {
            case INT8: return nccl.ncclInt8;
            case UINT8: return nccl.ncclUint8;
            case INT32: return nccl.ncclInt32;
            case UINT32: return nccl.ncclUint32;
            case INT64: return nccl.ncclInt64;
            case UINT64: return nccl.ncclUint64;
            case HALF: return nccl.ncclFloat16;
            case FLOAT: return nccl.ncclFloat32;
            case DOUBLE: return nccl.ncclFloat64;
            case BFLOAT16: return nccl.ncclBfloat16;
            default: throw new BackendException(ExitCode.USAGE, "-d " + t.label() + " is not supported by the nccl backend yet", null);
        }
    }

    static int ncclOp(ReduceOp op) {
        switch (op) {
            case SUM: return nccl.ncclSum;
            case PROD: return nccl.ncclProd;
            case MAX: return nccl.ncclMax;
            case MIN: return nccl.ncclMin;
            case AVG: return nccl.ncclAvg;
            default: throw new IllegalArgumentException(op.toString());
        }
    }
}
