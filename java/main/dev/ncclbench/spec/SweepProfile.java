package dev.ncclbench.spec;

import java.util.OptionalLong;

/**
 * The sizes and iterations a command sweeps when its flags do not say: `ncclbench sweep`'s whole range, or
 * preflight's short sweep. -b, -f and -i are resolved here from the flags as given (null: not given); -e's default
 * depends on where the chosen backend keeps its buffers, so a range without -e leaves it empty, and the sweep
 * resolves it once the backend is known ({@link #maxBytes}, sweep/SpecForBackend).
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
     * -b, -e, -f and -i as given (null: not given), resolved but for -e's default (empty until the backend is known;
     * nccl-tests' 32M when -b is given alone, as nccl-tests): -e's source says whether the user typed it. A range
     * nccl-tests would refuse (-b above -e, also the 32M that nccl-tests gives the one not typed) or loop on for ever
     * (-b 0 with -f 2 or more; -f 1 with -i 0) is refused here, and -e 0, which measures nothing.
     *
     * @throws IllegalArgumentException when they cannot go together, one line in the user's words with the fix
     */
    public RunSpec.SizeRange range(Long minGiven, Long maxGiven, Long factorGiven, long stepBytes) {
        if (maxGiven != null && maxGiven == 0) {
            throw new IllegalArgumentException("-e 0 sweeps nothing: the largest size must be 1 byte or more (e.g. -e 128M)");
        }
        // nccl-tests' rule (common.cu): -b and -e start at 32M each, so the one given alone sweeps from or to 32M
        boolean defaultSweep = !ncclTestsRule || minGiven == null && maxGiven == null;
        long min = minGiven != null ? minGiven : defaultSweep ? minBytes : Defaults.NCCL_TESTS_BYTES;
        OptionalLong max = maxGiven != null ? OptionalLong.of(maxGiven)
                : defaultSweep ? OptionalLong.empty() : OptionalLong.of(Defaults.NCCL_TESTS_BYTES);
        // the checks below judge a default -e by the larger of the command's defaults, the one -b can reach (a -b
        // alone above both is a sweep of that one size: the backend's default never lowers -e below -b)
        long end = max.orElse(Math.max(min, maxBytesGpu));
        if (min > end) {
            throw new IllegalArgumentException(minGiven != null && maxGiven != null
                    ? "-b " + Sizes.human(min) + " (" + min + " bytes) is above -e " + Sizes.human(end) + " (" + end + " bytes)"
                    : (minGiven == null ? "-e " + Sizes.human(end) + " given alone is below -b's " + Sizes.human(min)
                    : "-b " + Sizes.human(min) + " given alone is above -e's " + Sizes.human(end)) + " (nccl-tests' rule:"
                    + " the size not given is 32M, and sizes step by -i 1M); give both, e.g. "
                    + (minGiven == null ? "-b 8 -e " + Sizes.flag(end) + " -f 2" : "-b " + Sizes.flag(min) + " -e "
                    + Sizes.flag(min) + " for that one size"));
        }
        long factor = factorGiven != null ? factorGiven : defaultSweep ? stepFactor : Defaults.STEP_FACTOR;
        if (factor > 1 && min == 0 && min < end) {
            throw new IllegalArgumentException("-b 0 with -f " + factor + " never grows (0 x " + factor + " is 0): start at"
                    + " -b 1 or more, e.g. -b 8");
        }
        if (factor <= 1 && stepBytes <= 0 && min < end) {
            throw new IllegalArgumentException("-i must be above 0 when -f is 1, or the sweep would not advance");
        }
        return new RunSpec.SizeRange(min, max, maxGiven != null ? MaxBytesSource.FLAG : MaxBytesSource.DEFAULT, factor,
                stepBytes);
    }
}
