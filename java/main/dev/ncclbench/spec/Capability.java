package dev.ncclbench.spec;

/** What a backend can do, asked instead of checking its class or comparing its name. */
public enum Capability {
    /** Launches return before the collective completes; the backend's Operation.drain waits. */
    ASYNC_LAUNCH,
    /** -G: capture the timed loop in a CUDA graph. */
    CUDA_GRAPH,
    /** Writes NCCL's own debug log for the diagnosis. */
    NCCL_LOG,
    /**
     * Its buffers live in a GPU's memory (a GPU backend): -e defaults to the GPU range and what fits is counted per
     * device, -u offsets device pointers, and a flag only a GPU honours "needs a GPU" where a backend lacks this.
     */
    DEVICE_MEMORY,
    /**
     * Times each iteration on the device (CUDA events): where the per-iteration samples come from, the table's clock
     * (IterationClock.CUDA_EVENT), and whether the host-timed table needs its launch path warmed (CallPathWarmup).
     */
    EVENT_TIMING,
    /** -R: registers its buffers with the library (NCCL's local or symmetric registration). */
    BUFFER_REGISTRATION,
    /** Its library places its own threads (NCCL binds to the GPU's CPUs): the sweep pins none of them. */
    PLACES_OWN_THREADS,
    /**
     * Its collectives run in native code (the library's kernels), not in the JVM: its data path needs no JIT warm-up
     * (CodeWarmup, its note, and JitSettle are for a backend without this).
     */
    COMPILED_DATA_PATH,
    /** -g: one control-plane member drives several GPUs in group calls. */
    GPUS_PER_THREAD,
    /** -t: one control-plane member per thread of the process. */
    THREADS,
    /** --ranks: several ranks as threads of one process. */
    LOCAL_RANKS,
    /**
     * Binds the interface NCCL_SOCKET_IFNAME's rules pick (loopback when every rank is on one node) and opens
     * --sockets-per-peer connections (--socket-algo and --socket-chunk shape them); its path is known without a log:
     * its bytes cross TCP sockets, so its results are judged as a socket run's.
     */
    SOCKET_INTERFACE,
    /**
     * Several independent groups may run on one node at the same time (fleet's --survey all and batches): its ranks
     * hold no device, where two NCCL communicators on one GPU at once may deadlock.
     */
    CONCURRENT_GROUPS
}
