package dev.ncclbench.backend.nccl;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Who may do what to a thread's communicators, as nccl-tests does it (common.cu: a thread aborts only on error,
 * main destroys after joining): ncclCommAbort is made to be called from any thread (another rank's thread, the
 * signal handler) while the owner may be inside a call; ncclCommDestroy, and freeing the buffers NCCL may still
 * touch, only by the owner or after it ended. An aborted communicator is never destroyed (abort has freed it), and
 * its buffers are left to the process's end: a kernel the abort is still stopping may read them.
 */
final class CommLifecycle {
    enum State { OPEN, ABORTED, CLOSED }

    private final AtomicReference<State> state = new AtomicReference<>(State.OPEN);

    /** @return true for the one caller that must now call ncclCommAbort (open, never aborted or closed) */
    boolean abort() {
        return state.compareAndSet(State.OPEN, State.ABORTED);
    }

    /**
     * @return true for the one caller that must now destroy the communicators and then free the buffers (it was
     *         open); false after an abort (abort freed the communicators; the state stays ABORTED) or a close
     */
    boolean close() {
        return state.compareAndSet(State.OPEN, State.CLOSED);
    }

    /** Whether an abort came first: the communicators are gone, the owner must not call NCCL with them again. */
    boolean aborted() {
        return state.get() == State.ABORTED;
    }

    State state() {
        return state.get();
    }
}
