package dev.ncclbench.spec;

import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;

import java.nio.file.Path;

/**
 * Every default of a sweep, in one place (as JMH's Defaults): the flags' help, the resolution of a RunSpec and
 * the backends read them here. A flag not given stays "not set" until it is resolved against these.
 */
public final class Defaults {
    private Defaults() {
    }

    /** -b and -e when neither is given: the whole range nccl-tests users sweep on GPUs. */
    public static final long SWEEP_MIN_BYTES = 8;
    public static final long SWEEP_MAX_BYTES = 8L << 30;
    /** -b / -e when only the other is given: nccl-tests' own default of both. */
    public static final long NCCL_TESTS_BYTES = 32L << 20;
    /** -f for the default sweep; 1 (additive steps, as nccl-tests) when -b or -e is given. */
    public static final long SWEEP_STEP_FACTOR = 2;
    public static final long STEP_FACTOR = 1;
    /** -i */
    public static final long STEP_BYTES = 1L << 20;
    /** -n, -w, -m, -N, -c */
    public static final int ITERS = 20;
    public static final int WARMUP_ITERS = 1;
    public static final int AGG_ITERS = 1;
    public static final int RUN_CYCLES = 1;
    public static final int CHECK_ITERS = 1;
    /** -o, -d, -r, -a, -z */
    public static final ReduceOp OP = ReduceOp.SUM;
    public static final DataType TYPE = DataType.FLOAT;
    public static final int ROOT = 0;
    public static final int AVERAGE = 1;
    public static final int BLOCKING = 0;
    /** -T 0: the watchdog of every backend and of the rendezvous store. */
    public static final int WATCHDOG_SECONDS = 300;
    /** -g, -t, -G */
    public static final int GPUS_PER_THREAD = 1;
    public static final int THREADS = 1;
    public static final int CUDA_GRAPH = 0;
    /** -I: no per-iteration events, as nccl-tests (recording one per iteration costs host time at small sizes). */
    public static final int PER_ITER_TIMING = 0;
    /** --collective, --backend */
    public static final String COLLECTIVE = "all_reduce";
    public static final String BACKEND = "auto";
    /** --ranks without a launcher (with one: one rank per process). */
    public static final int LOCAL_RANKS_STANDALONE = 4;
    /** --ranks at most: every local rank is a thread with its own sockets and buffers. */
    public static final int MAX_LOCAL_RANKS = 64;
    /** --sockets-per-peer, and its upper bound. */
    public static final int SOCKETS_PER_PEER = 2;
    public static final int MAX_SOCKETS_PER_PEER = 16;
    /** --socket-algo: the socket backend picks by size (its crossover is in the result's header). */
    public static final String SOCKET_ALGO = "auto";
    /** --socket-chunk: 0 is the socket backend's own choice. */
    public static final long SOCKET_CHUNK = 0;
    /** The socket backend's -e when none is given: large enough to reach the bandwidth plateau on a 100G NIC. */
    public static final long SOCKET_DEFAULT_MAX_BYTES = 128L << 20;
    /**
     * preflight's short sweep (10 s in all on an idle 2-core VM without a GPU: README's Preflight): -b, -e with GPUs, -e
     * without (host memory, sockets), -f, -n, -w.
     */
    public static final long PREFLIGHT_MIN_BYTES = 8;
    public static final long PREFLIGHT_MAX_BYTES_GPU = 1L << 30;
    public static final long PREFLIGHT_MAX_BYTES_HOST = 64L << 20;
    public static final long PREFLIGHT_STEP_FACTOR = 4;
    public static final int PREFLIGHT_ITERS = 20;
    public static final int PREFLIGHT_WARMUP_ITERS = 5;
    /** --out */
    public static final Path OUT_DIR = Path.of("results", "runs");

    /** The watchdog in milliseconds: -T, or {@link #WATCHDOG_SECONDS} when -T is 0. */
    public static long watchdogMillis(int timeoutSeconds) {
        return (timeoutSeconds > 0 ? timeoutSeconds : WATCHDOG_SECONDS) * 1000L;
    }
}
