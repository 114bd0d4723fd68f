package dev.ncclbench.sweep;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Before a timed loop, gives the JIT compiler a moment to finish what the previous size set off (the row's
 * statistics, its JSON, the next buffers' fill). Compiles run on their own threads: on a machine with as many
 * cores as ranks they take a rank's CPU for milliseconds, which is the p99 of a loop of microsecond calls.
 */
final class JitSettle {
    /** The compiler counts as idle when its total compile time has not moved for this long. */
    private static final long QUIET_NANOS = 8_000_000L;
    /** Never wait longer than this: a JIT that keeps compiling is measured as it is. */
    private static final long MAX_NANOS = 100_000_000L;
    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

    private JitSettle() {
    }

    static void await() {
        if (JIT == null || !JIT.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long start = System.nanoTime();
        long last = JIT.getTotalCompilationTime();
        long quietSince = start;
        while (true) {
            long now = System.nanoTime();
            if (now - quietSince >= QUIET_NANOS || now - start >= MAX_NANOS) {
                return;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long t = JIT.getTotalCompilationTime();
            if (t != last) {
                last = t;
                quietSince = System.nanoTime();
            }
        }
    }
}
