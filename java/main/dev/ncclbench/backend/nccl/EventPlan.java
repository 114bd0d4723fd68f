package dev.ncclbench.backend.nccl;

/**
 * Where the per-iteration CUDA events of a timed loop go, as nccl-tests records them: one boundary event
 * before each iteration's batch and one after the last (iters + 1 events, iteration i lasts from event i
 * to event i + 1), or with -z 3 a start/stop pair per iteration (2 x iters events) so that the barrier
 * between iterations is not timed. Events are recorded outside the -m group, never around a single call.
 */
record EventPlan(int iters, boolean paired) {

    static EventPlan of(int iters, int blocking) {
        return new EventPlan(iters, blocking == 3);
    }

    int eventCount() {
        return paired ? 2 * iters : iters + 1;
    }

    /** The event recorded before iteration i's batch (i = iters: the closing event of the unpaired form). */
    int startEvent(int i) {
        return paired ? 2 * i : i;
    }

    /** The event recorded after iteration i completed (-z 3 only). */
    int stopEvent(int i) {
        if (!paired) {
            throw new IllegalStateException("stop events exist only with -z 3");
        }
        return 2 * i + 1;
    }

    /** The pair of events whose elapsed time is iteration i. */
    int[] interval(int i) {
        return paired ? new int[] {2 * i, 2 * i + 1} : new int[] {i, i + 1};
    }
}
