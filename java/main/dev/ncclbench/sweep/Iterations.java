package dev.ncclbench.sweep;

import dev.ncclbench.backend.Operation;

/** The timed iterations' calls, as nccl-tests' BenchTime makes them, for the table's loop and the sample pass. */
final class Iterations {
    private Iterations() {
    }

    /** Iteration i: its -m calls as one group (call index i x m + a shifts the buffers), its event before them. */
    static void one(Operation op, int i, int agg) {
        if (agg > 1) {
            op.groupStart();
        }
        op.markStart(i);
        for (int a = 0; a < agg; a++) {
            op.launch(i * agg + a);
        }
        if (agg > 1) {
            op.groupEnd();
        }
    }

    /**
     * A GPU backend's per-iteration samples without -I: after the table's loop and its check, the same -n iterations
     * again with a CUDA event before each -m group and one after the last, as -I 1 times them. The table's figures
     * stay nccl-tests' (host time of the first loop, which this pass cannot touch: it runs after it); the gate and
     * the report get samples to judge noise with. Empty when the backend gives no events.
     */
    static double[] eventSamples(Operation op, int iters, int agg) {
        op.beginTimed(iters, false);
        for (int i = 0; i < iters; i++) {
            one(op, i, agg);
        }
        op.markStart(iters);
        op.drain();
        double[] device = op.batchSamplesUs();
        if (device == null || device.length != iters) {
            return new double[0];
        }
        double[] out = new double[iters];
        for (int i = 0; i < iters; i++) {
            out[i] = device[i] / agg;
        }
        return out;
    }
}
