package dev.ncclbench.backend.nccl;

import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.collective.DataPattern;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;

/**
 * Writes one GPU's inputs and counts its wrong outputs: with the kernels on the device when they loaded
 * (1-8 GB in milliseconds), else through the host in 64 MB chunks, the same values either way
 * (DataPattern on the host, pattern.cuh on the device).
 */
final class DeviceData {
    private static final long CHUNK = 64L << 20;

    private final Kernels kernels;
    private final CUstream_st stream;
    private final DataType type;
    private final ReduceOp op;
    private final int eb;
    private LongPointer counter;

    /** @param kernels the loaded kernels, or null for the host path */
    DeviceData(Kernels kernels, CUstream_st stream, DataType type, ReduceOp op) {
        this.kernels = kernels;
        this.stream = stream;
        this.type = type;
        this.op = op;
        this.eb = type.bytes();
    }

    /** The device address a pointer stands for, its position included. */
    static long address(Pointer p) {
        return p.address() + p.position() * p.sizeof();
    }

    /** Poisons the output (bytes 0xFF: -1 or NaN in every type), then writes rank's input. */
    void fill(BytePointer send, long sendCount, BytePointer recv, long recvCount, int rank) {
        NcclRuntime.checkCuda(cudart.cudaMemsetAsync(recv, 0xFF, recvCount * eb, stream), "cudaMemsetAsync");
        if (kernels != null) {
            if (sendCount > 0) {
                kernel(KernelSignature.FILL, sendCount, KernelSignature.fill(address(send), sendCount, rank, 0L, op.ordinal()));
            }
            NcclRuntime.checkCuda(cudart.cudaStreamSynchronize(stream), "fill kernel");
            return;
        }
        NcclRuntime.checkCuda(cudart.cudaStreamSynchronize(stream), "cudaMemsetAsync");
        for (long start = 0; start < sendCount; start += CHUNK / eb) {
            int n = (int) Math.min(CHUNK / eb, sendCount - start);
            ByteBuffer b = ByteBuffer.allocateDirect(n * eb).order(ByteOrder.LITTLE_ENDIAN);
            for (int k = 0; k < n; k++) {
                HostElements.put(b, type, DataPattern.input(rank, start + k, op));
            }
            b.flip();
            BytePointer dst = new BytePointer(send).position(send.position() + start * eb);
            NcclRuntime.checkCuda(cudart.cudaMemcpy(dst, new BytePointer(b), (long) n * eb, cudart.cudaMemcpyHostToDevice), "cudaMemcpy H2D");
        }
    }

    /** Wrong elements of rank's output. */
    long verify(Collective coll, BytePointer recv, Counts counts, int nranks, int rank, int root) {
        Optional<List<VerifyPlan.Run>> plan = kernels == null ? Optional.empty() : VerifyPlan.of(coll, rank, counts, nranks, root, eb);
        if (plan.isEmpty()) {
            return verifyOnHost(coll, recv, counts, nranks, rank, root);
        }
        if (counter == null) {
            Pointer p = new Pointer();
            NcclRuntime.checkCuda(cudart.cudaMalloc(p, 8), "cudaMalloc(8)");
            counter = new LongPointer(p);
        }
        NcclRuntime.checkCuda(cudart.cudaMemsetAsync(counter, 0, 8, stream), "cudaMemsetAsync");
        long base = address(recv);
        long wrong = address(counter);
        for (VerifyPlan.Run r : plan.get()) {
            long at = base + r.offset() * eb;
            if (r.reduced()) {
                kernel(KernelSignature.VERIFY_REDUCED, r.count(),
                        KernelSignature.verifyReduced(at, r.count(), r.firstIndex(), op.ordinal(), nranks, wrong));
            } else {
                kernel(KernelSignature.VERIFY_COPY, r.count(),
                        KernelSignature.verifyCopy(at, r.count(), r.srcRank(), r.firstIndex(), op.ordinal(), wrong));
            }
        }
        long[] host = new long[1];
        LongPointer h = new LongPointer(1);
        NcclRuntime.checkCuda(cudart.cudaMemcpyAsync(h, counter, 8, cudart.cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync D2H");
        NcclRuntime.checkCuda(cudart.cudaStreamSynchronize(stream), "verify kernel");
        h.get(host);
        h.close();
        return host[0];
    }

    private void kernel(KernelSignature k, long count, Object[] args) {
        int r = kernels.launch(k, type, count, stream, args);
        if (r != 0) {
            NcclRuntime.checkCuda(r, "cuLaunchKernel(" + k.function(type) + ")");
        }
    }

    private long verifyOnHost(Collective coll, BytePointer recv, Counts counts, int nranks, int rank, int root) {
        long wrong = 0;
        for (long start = 0; start < counts.recvCount(); start += CHUNK / eb) {
            int n = (int) Math.min(CHUNK / eb, counts.recvCount() - start);
            ByteBuffer b = ByteBuffer.allocateDirect(n * eb).order(ByteOrder.LITTLE_ENDIAN);
            BytePointer src = new BytePointer(recv).position(recv.position() + start * eb);
            NcclRuntime.checkCuda(cudart.cudaMemcpy(new BytePointer(b), src, (long) n * eb, cudart.cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
            for (int k = 0; k < n; k++) {
                double got = HostElements.get(b, type);
                double want = DataPattern.expected(coll, rank, start + k, counts, nranks, root, op, type);
                if (!DataPattern.matches(got, want, op, type)) {
                    wrong++;
                }
            }
        }
        return wrong;
    }

    void close() {
        if (counter != null) {
            cudart.cudaFree(counter);
            counter = null;
        }
    }
}
