package dev.ncclbench.spec;

/**
 * The sizes and iterations a command sweeps when its flags do not say: `ncclbench sweep`'s whole range, or
 * preflight's short sweep. The sizes are resolved here once, from the flags as given (null: not given); -e's default
 * depends on where the chosen backend keeps its buffers, so the sweep lowers it for a host-memory backend once the
 * backend is known ({@link #maxBytes}), with the source still {@link MaxBytesSource#DEFAULT}.
 *
 * @param maxBytesGpu   -e's default on a backend with its own device memory
 * @param maxBytesHost  -e's default on a backend whose buffers are in this process's memory (sockets)
 * @param ncclTestsRule -b or -e given alone: the other is nccl-tests' 32M and -f is 1, as nccl-tests
 */
public record SweepProfile(String command, long minBytes, long maxBytesGpu, long maxBytesHost, long stepFactor,
                           int iters, int warmupIters, boolean ncclTestsRule) {
    public static final SweepProfile SWEEP = new SweepProfile("sweep", Defaults.SWEEP_MIN_BYTES, Defaults.SWEEP_MAX_BYTES,
            Defaults.SOCKET_DEFAULT_MAX_BYTES, Defaults.SWEEP_STEP_FACTOR, Defaults.ITERS, Defaults.WARMUP_ITERS, true);
    public static final SweepProfile PREFLIGHT = new SweepProfile("preflight", Defaults.PREFLIGHT_MIN_BYTES,
            Defaults.PREFLIGHT_MAX_BYTES_GPU, Defaults.PREFLIGHT_MAX_BYTES_HOST, Defaults.PREFLIGHT_STEP_FACTOR,
            Defaults.PREFLIGHT_ITERS, Defaults.PREFLIGHT_WARMUP_ITERS, false);

    /** -e's default where the backend keeps its buffers. */
    public long maxBytes(boolean deviceMemory) {
        return deviceMemory ? maxBytesGpu : maxBytesHost;
    }

    /**
     * -b, -e, -f and -i as given (null: not given), resolved: -e's source says whether the user typed it.
     *
     * @throws IllegalArgumentException when they cannot go together (-b above -e; -f 1 with -i 0), in the user's words
     */
    public RunSpec.SizeRange range(Long minGiven, Long maxGiven, Long factorGiven, long stepBytes) {
        boolean defaultSweep = !ncclTestsRule || minGiven == null && maxGiven == null;
        // -e alone: -b is nccl-tests' 32M, or -e when that is smaller (a sweep of one size, never "-b above -e")
        long min = minGiven != null ? minGiven : defaultSweep ? minBytes : Math.min(Defaults.NCCL_TESTS_BYTES, maxGiven);
        long max = maxGiven != null ? maxGiven : defaultSweep ? maxBytesGpu : Math.max(min, Defaults.NCCL_TESTS_BYTES);
        if (minGiven != null && maxGiven == null && min > max) {
            max = min; // -b alone above the default end: a sweep of that one size
        }
        if (min > max) {
            throw new IllegalArgumentException("-b " + Sizes.human(min) + " (" + min + " bytes) is above -e "
                    + Sizes.human(max) + " (" + max + " bytes)");
        }
        long factor = factorGiven != null ? factorGiven : defaultSweep ? stepFactor : Defaults.STEP_FACTOR;
        if (factor <= 1 && stepBytes <= 0 && min < max) {
            throw new IllegalArgumentException("-i must be above 0 when -f is 1 or less, or the sweep would not advance");
        }
        return new RunSpec.SizeRange(min, max, maxGiven != null ? MaxBytesSource.FLAG : MaxBytesSource.DEFAULT, factor,
                stepBytes);
    }
}
