package dev.ncclbench.backend.socket;

import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Warms the socket backend's code paths before the first timed size, whatever -w says. A JVM runs new code
 * in the interpreter and compiles it after thousands of calls: -w 1 is one call, so a sweep's first sizes
 * used to be timed half interpreted (526 us for 8 B where a warm call takes a few, docs/benchmarks.md), and
 * the compiler threads then competed with the ranks for the CPUs.
 *
 * <p>The warm-up is itself the vote on when to stop: each round is an 8-byte all_reduce (MAX) of every rank's
 * "I want more", so all ranks stop after the same round. A rank wants more until it has run
 * {@link #MIN_ROUNDS} rounds and its JIT compiler has gone quiet (compiles run on their own threads and would
 * otherwise compete with the first timed size), at most {@link #BUDGET_NANOS}; a JVM warmed by an earlier mesh
 * (tests, fleet) wants none. The middle and large paths get a few calls in between.
 */
final class Warmup {
    static final int MIN_ROUNDS = 5_000;
    static final long BUDGET_NANOS = 1_000_000_000L;
    /** The JIT counts as done when its compile time has not grown for this long. */
    private static final long JIT_QUIET_NANOS = 60_000_000L;
    /** What the result header says about it. */
    static final String NOTE = "socket: the code paths are warmed (JIT) before the first size, whatever -w:"
            + " " + MIN_ROUNDS + " 8 B all_reduce calls, a few of 256 KiB and 8 MiB, then 8 B ones until the compiler is idle,"
            + " at most " + BUDGET_NANOS / 1_000_000 + " ms";

    private static volatile boolean warm;

    private Warmup() {
    }

    static void run(SocketRankComm comm) {
        Collective ar = Collectives.byName("all_reduce");
        ByteBuffer send = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        ByteBuffer main = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        ByteBuffer scratch = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        SocketOperation vote = new SocketOperation(comm, ar, ar.counts(2, 4, comm.nranks()), DataType.FLOAT, ReduceOp.MAX,
                -1, false, main, send, scratch);
        boolean wanted = !warm;
        long t0 = System.nanoTime();
        // every rank sees the same votes, so every rank makes the same calls
        boolean anyWanted = false;
        for (int round = 0; round < MIN_ROUNDS; round++) {
            if (!vote(vote, send, main, wanted && System.nanoTime() - t0 < BUDGET_NANOS)) {
                break;
            }
            anyWanted = true;
        }
        if (!anyWanted) {
            return;
        }
        calls(comm, ar, 256 << 10, 20);
        calls(comm, ar, 8 << 20, 2);
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
        long jitTime = timed ? jit.getTotalCompilationTime() : 0;
        long jitChanged = System.nanoTime();
        for (int round = 0; ; round++) {
            long now = System.nanoTime();
            if (timed && round % 64 == 0) {
                long t = jit.getTotalCompilationTime();
                if (t != jitTime) {
                    jitTime = t;
                    jitChanged = now;
                }
            }
            // compiles run on their own threads and would compete with the first timed size: wait them out
            boolean jitBusy = timed && now - jitChanged < JIT_QUIET_NANOS;
            if (!vote(vote, send, main, wanted && jitBusy && now - t0 < BUDGET_NANOS)) {
                break;
            }
        }
        warm = true;
    }

    /** One round: true when any rank wants more. */
    private static boolean vote(SocketOperation vote, ByteBuffer send, ByteBuffer main, boolean more) {
        send.putFloat(0, more ? 1 : 0).putFloat(4, 0);
        vote.launch();
        return main.getFloat(0) != 0;
    }

    private static void calls(SocketRankComm comm, Collective ar, int bytes, int times) {
        ByteBuffer send = ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
        ByteBuffer main = ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
        ByteBuffer scratch = ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
        SocketOperation op = new SocketOperation(comm, ar, ar.counts(bytes / 4, 4, comm.nranks()), DataType.FLOAT,
                ReduceOp.SUM, -1, false, main, send, scratch);
        for (int i = 0; i < times; i++) {
            op.launch();
        }
    }
}
