package dev.ncclbench.backend.nccl;

import org.bytedeco.cuda.cudart.CUevent_st;
import org.bytedeco.cuda.cudart.CUstream_st;
import org.bytedeco.cuda.global.cudart;

/**
 * -I: one timed loop's CUDA events on every GPU of a thread, as nccl-tests records them (common.cu): created before
 * the loop, recorded at iteration boundaries (or start/stop pairs with -z 3), read only when asked after the loop,
 * outside the reported time.
 */
final class LoopEvents {
    private final int[] devices;
    private final CUstream_st[] streams;
    private final EventPlan plan;
    private final CUevent_st[][] events;
    /** Whether the loop's last event is recorded: drains inside the loop (-z 1, 2, 3) must not read events yet. */
    private boolean loopClosed;
    private double[] samples;

    LoopEvents(int[] devices, CUstream_st[] streams, int iters, boolean paired) {
        this.devices = devices;
        this.streams = streams;
        this.plan = new EventPlan(iters, paired);
        this.events = new CUevent_st[devices.length][plan.eventCount()];
        for (int i = 0; i < devices.length; i++) {
            NcclRuntime.checkCuda(cudart.cudaSetDevice(devices[i]), "cudaSetDevice");
            for (int k = 0; k < plan.eventCount(); k++) {
                events[i][k] = new CUevent_st();
                NcclRuntime.checkCuda(cudart.cudaEventCreate(events[i][k]), "cudaEventCreate");
            }
        }
    }

    void markStart(int iter) {
        record(plan.startEvent(iter));
        loopClosed = !plan.paired() && iter == plan.iters();
    }

    void markStop(int iter) {
        if (plan.paired()) {
            record(plan.stopEvent(iter));
            loopClosed = iter == plan.iters() - 1;
        }
    }

    private void record(int k) {
        for (int i = 0; i < devices.length; i++) {
            if (devices.length > 1) {
                NcclRuntime.checkCuda(cudart.cudaSetDevice(devices[i]), "cudaSetDevice");
            }
            NcclRuntime.checkCuda(cudart.cudaEventRecord(events[i][k], streams[i]), "cudaEventRecord");
        }
    }

    /**
     * Per-iteration device time (us), the slowest GPU of this thread per iteration (as nccl-tests' -I), once the loop
     * is closed and drained; null before. Read once, then kept.
     */
    double[] samples() {
        if (samples == null && loopClosed) {
            double[] out = new double[plan.iters()];
            float[] ms = new float[1];
            for (int i = 0; i < devices.length; i++) {
                NcclRuntime.checkCuda(cudart.cudaSetDevice(devices[i]), "cudaSetDevice");
                for (int k = 0; k < plan.iters(); k++) {
                    int[] iv = plan.interval(k);
                    NcclRuntime.checkCuda(cudart.cudaEventElapsedTime(ms, events[i][iv[0]], events[i][iv[1]]), "cudaEventElapsedTime");
                    out[k] = Math.max(out[k], ms[0] * 1000.0);
                }
            }
            samples = out;
        }
        return samples;
    }

    void close() {
        for (int i = 0; i < devices.length; i++) {
            cudart.cudaSetDevice(devices[i]);
            for (CUevent_st e : events[i]) {
                if (e != null) {
                    cudart.cudaEventDestroy(e);
                }
            }
        }
    }
}
