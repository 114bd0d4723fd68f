package dev.ncclbench.backend;

/** What a backend can do, asked instead of checking its class. */
public enum Capability {
    /** Launches return before the collective completes; {@link Operation#drain} waits. */
    ASYNC_LAUNCH,
    /** -G: capture the timed loop in a CUDA graph. */
    CUDA_GRAPH,
    /** Writes NCCL's own debug log for the diagnosis. */
    NCCL_LOG,
    /** Device-side per-iteration timing (CUDA events). */
    DEVICE_TIMING
}
