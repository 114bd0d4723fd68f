package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.backend.BackendException;

/**
 * Which GPUs this process drives: local rank x (threads x -g), as nccl-tests' "invalid device ordinal"
 * arithmetic, checked against what is visible before any communicator is made.
 *
 * @param first          the first GPU index of this process
 * @param gpusPerThread  -g
 * @param threads        -t (control-plane members of this process)
 */
record DevicePlan(int first, int gpusPerThread, int threads) {

    static DevicePlan of(int localRank, int threads, int gpusPerThread, int visible) {
        int perProcess = threads * gpusPerThread;
        long first = (long) localRank * perProcess;
        if (first + perProcess > visible) {
            throw new BackendException(ExitCode.ENVIRONMENT, "this process needs GPUs " + first + ".." + (first + perProcess - 1)
                    + " (local rank " + localRank + ", " + threads + " thread(s) x -g " + gpusPerThread + ") but "
                    + visible + (visible == 1 ? " is" : " are") + " visible",
                    "lower -g/-t or the number of processes per node, or check CUDA_VISIBLE_DEVICES");
        }
        return new DevicePlan((int) first, gpusPerThread, threads);
    }

    /** The first GPU of one thread's ranks. */
    int firstOf(int thread) {
        return first + thread * gpusPerThread;
    }
}
