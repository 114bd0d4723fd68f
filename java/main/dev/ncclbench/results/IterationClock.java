package dev.ncclbench.results;

/**
 * What a run's per-iteration times (-R) were measured with, as the table's "Per-Iteration Report" line names it: told
 * by the sweep from its backend's capabilities, since a result knows its backend only by name.
 */
public enum IterationClock {
    /** Device-side timing around each call (nccl-tests' own). */
    CUDA_EVENT("CUDA event"),
    /** The host's clock around each call, for a backend with no device. */
    HOST("host clock");

    final String label;

    IterationClock(String label) {
        this.label = label;
    }
}
