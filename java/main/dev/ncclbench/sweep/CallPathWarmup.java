package dev.ncclbench.sweep;

import dev.ncclbench.spec.Capability;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.spec.RunSpec;

/**
 * A GPU backend timed by the host's clock (no -I, no -G) reports host time, as nccl-tests does, and at 8-64 B that
 * is mostly the host's cost of a call. A sweep makes far fewer calls per size than HotSpot needs to compile them
 * (C1 after 200, C2 after 5,000 invocations), so without this the smallest sizes are timed on interpreted code,
 * where nccl-tests' loop is native. Under -I the events time the GPU, under -G only replays are timed.
 */
final class CallPathWarmup {
    /** Untimed calls, each drained: past C2's threshold for launch and drain, about 30 ms on an H200. */
    static final int CALLS = 10_000;

    private CallPathWarmup() {
    }

    static boolean needed(RunSpec spec, RankComm comm) {
        return comm.capabilities().contains(Capability.EVENT_TIMING) && spec.devices().perIterTiming() == 0 && spec.devices().cudaGraph() == 0;
    }

    /**
     * {@link #CALLS} launch + drain, out of place and in place alternately (both are timed), at the sweep's smallest
     * size, then a wait for the compiler; the same count on every rank (the calls are collective). Closes both.
     */
    static void run(RunSpec spec, Operation outOfPlace, Operation inPlace) {
        try (Operation oop = outOfPlace; Operation ip = inPlace) {
            for (int k = 0; k < CALLS; k++) {
                Operation op = (k & 1) == 0 ? oop : ip;
                op.launch(k);
                op.drain();
            }
        }
        JitSettle.await(spec.iterations().iters());
    }
}
