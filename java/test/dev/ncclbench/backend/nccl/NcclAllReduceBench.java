package dev.ncclbench.backend.nccl;

import dev.ncclbench.env.Host;
import dev.ncclbench.internal.jni.NcclProbe;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclComm;
import org.bytedeco.javacpp.Pointer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What one ncclAllReduce costs through JavaCPP, per call, next to native/bench/allreduce_percall.c (the same
 * calls from C, same sizes, same sync pattern): one GPU, one rank (ncclCommInitAll), 8 bytes of float.
 * {@code enqueue}: back-to-back calls, a stream synchronize every 1024 (what the timed loop pays per call
 * with -z 0); {@code latency}: call + cudaStreamSynchronize (-z 2); {@code enqueueInPlace}: as enqueue with send ==
 * recv, which NCCL turns into no GPU work at all on one rank (out of place it is a cudaMemcpyAsync whose own host cost
 * hides the JNI's), so it measures the call path alone. The stream is non-blocking, as nccl-tests' and the sweep's.
 * Needs a GPU: scripts/gpu-selftest.sh
 * runs it; elsewhere its setup fails with the reason. Not a test.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class NcclAllReduceBench {
    private ncclComm comm;
    private CUstream_st stream;
    private Pointer send;
    private Pointer recv;
    private long calls;

    @Setup
    public void setUp() {
        NcclProbe.setenv("NCCL_DEBUG", "WARN", false); // no log file for a benchmark
        NcclRuntime.load(null, Host.of(Map.of()));
        NcclRuntime.checkCuda(cudart.cudaSetDevice(0), "cudaSetDevice(0)");
        send = new Pointer();
        recv = new Pointer();
        NcclRuntime.checkCuda(cudart.cudaMalloc(send, 8), "cudaMalloc");
        NcclRuntime.checkCuda(cudart.cudaMalloc(recv, 8), "cudaMalloc");
        stream = new CUstream_st();
        NcclRuntime.checkCuda(cudart.cudaStreamCreateWithFlags(stream, NcclRankComm.STREAM_FLAGS), "cudaStreamCreateWithFlags");
        comm = new ncclComm();
        NcclRuntime.check(nccl.ncclCommInitAll(comm, 1, new int[] {0}), "ncclCommInitAll");
    }

    @Benchmark
    public int enqueue() {
        int r = nccl.ncclAllReduce(send, recv, 2, nccl.ncclFloat32, nccl.ncclSum, comm, stream);
        if ((++calls & 1023) == 0) {
            cudart.cudaStreamSynchronize(stream);
        }
        return r;
    }

    @Benchmark
    public int enqueueInPlace() {
        int r = nccl.ncclAllReduce(recv, recv, 2, nccl.ncclFloat32, nccl.ncclSum, comm, stream);
        if ((++calls & 1023) == 0) {
            cudart.cudaStreamSynchronize(stream);
        }
        return r;
    }

    @Benchmark
    public int latency() {
        nccl.ncclAllReduce(send, recv, 2, nccl.ncclFloat32, nccl.ncclSum, comm, stream);
        return cudart.cudaStreamSynchronize(stream);
    }

    @TearDown
    public void tearDown() {
        cudart.cudaStreamSynchronize(stream);
        nccl.ncclCommDestroy(comm);
        cudart.cudaFree(send);
        cudart.cudaFree(recv);
        cudart.cudaStreamDestroy(stream);
    }
}
