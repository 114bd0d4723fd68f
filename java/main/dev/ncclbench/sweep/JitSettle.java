package dev.ncclbench.sweep;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether the JIT compiler is still at work, and a short wait for it before a timed loop. Compiles run on their
 * own threads: on a machine with as many cores as ranks one takes a rank's CPU for milliseconds, which is the p99
 * of a loop of microsecond calls (docs/benchmarks.md#jitsettle).
 *
 * <p>On Linux the compiler threads' time is read from /proc/self/task/TID/schedstat (the threads are named
 * "C1 CompilerThre", "C2 CompilerThre"): on a CPU or waiting for one, it grows while a compile is under way. Elsewhere
 * the JVM's total compile time stands in, which only grows when a compile ends.
 *
 * <p>Where the ranks' threads are bound to CPUs, the compiler's threads also run at the lowest priority
 * ({@link dev.ncclbench.launch.CpuBinding#lowerCompilerPriority}, with the ids from {@link #compilerThreads}): on a
 * machine with as many CPUs as ranks there is no free CPU for them, and a compile started inside a timed loop
 * takes a rank's CPU for whole scheduler slices.
 */
final class JitSettle {
    /** The compiler counts as idle when it has not run for this long. */
    private static final long QUIET_NANOS = 10_000_000L;
    /**
     * Never wait longer than this before a timed loop, nor longer than {@link #PER_ITER_NANOS} per timed iteration
     * (a 2-iteration check is not worth a second per size; nccl-tests' default -n 20 gets 300 ms): a JIT that
     * keeps compiling is measured as it is (docs/benchmarks.md#jitsettle).
     */
    private static final long MAX_NANOS = 1_000_000_000L;
    private static final long PER_ITER_NANOS = 15_000_000L;
    private static final Path TASKS = Path.of("/proc/self/task");
    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

    private JitSettle() {
    }

    /** The compiler threads' schedstat files, listed again when one is gone or every {@link #RELIST_NANOS}. */
    private static volatile List<Path> compilerStats;
    private static volatile long listedAt;
    private static final long RELIST_NANOS = 1_000_000_000L;

    /** A counter that grows while the compiler works: its threads' CPU nanoseconds, else total compile ms. */
    static long work() {
        List<Path> stats = compilerStats;
        long now = System.nanoTime();
        if (stats == null || now - listedAt > RELIST_NANOS) {
            stats = list();
            compilerStats = stats;
            listedAt = now;
        }
        if (!stats.isEmpty()) {
            long sum = 0;
            for (Path p : stats) {
                long v = runNanos(p);
                if (v < 0) {
                    compilerStats = null; // a compiler thread ended (they come and go): list them again
                    continue;
                }
                sum += v;
            }
            return sum;
        }
        return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() * 1_000_000L : 0;
    }

    /** Whether the compiler threads were found (else {@link #work} is the JVM's compile-time counter). */
    static boolean readsThreads() {
        return !list().isEmpty();
    }

    /**
     * The first two numbers of a schedstat file added up (ns on a CPU, ns runnable and waiting for one), or -1. The
     * wait counts because a compiler thread at the lowest priority ({@link dev.ncclbench.launch.CpuBinding#lowerCompilerPriority}) may be starved: its CPU time
     * alone would then look idle in the middle of a compile. Kept small: it runs between timed loops.
     */
    private static long runNanos(Path p) {
        try {
            return schedstat(Files.readAllBytes(p));
        } catch (IOException e) {
            return -1;
        }
    }

    /** "1234 5678 9\n": 1234 + 5678; -1 when the first two fields are not numbers. */
    static long schedstat(byte[] b) {
        long sum = 0;
        int i = 0;
        for (int field = 0; field < 2; field++) {
            long v = 0;
            int start = i;
            while (i < b.length && b[i] >= '0' && b[i] <= '9') {
                v = v * 10 + (b[i++] - '0');
            }
            if (i == start) {
                return -1;
            }
            sum += v;
            i++; // the space
        }
        return sum;
    }

    /** The compiler threads' ids, for {@link dev.ncclbench.launch.CpuBinding#lowerCompilerPriority}; empty if not found. */
    static List<String> compilerThreads() {
        List<String> tids = new ArrayList<>();
        for (Path stat : list()) {
            tids.add(stat.getParent().getFileName().toString());
        }
        return tids;
    }

    private static List<Path> list() {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(TASKS)) {
            return out;
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path t : tasks) {
                try {
                    String name = Files.readString(t.resolve("comm"));
                    if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                        out.add(t.resolve("schedstat"));
                    }
                } catch (IOException | RuntimeException gone) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            return new ArrayList<>();
        }
        return out;
    }

    /** Waits until the compiler has been idle for a moment, before a loop of {@code iters} timed iterations. */
    static void await(int iters) {
        awaitQuiet(QUIET_NANOS, System.nanoTime() + Math.min(MAX_NANOS, iters * PER_ITER_NANOS), 2);
    }

    /**
     * Sleeps ({@code sleepMillis} at a time) until the compiler has not worked for {@code quietNanos}, or until
     * {@code deadline} (System.nanoTime); returns {@link #work} as last read.
     */
    static long awaitQuiet(long quietNanos, long deadline, long sleepMillis) {
        long last = work();
        long quietSince = System.nanoTime();
        while (true) {
            long now = System.nanoTime();
            if (now - quietSince >= quietNanos || now - deadline >= 0) {
                return last;
            }
            try {
                Thread.sleep(sleepMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return last;
            }
            long w = work();
            if (w != last) {
                last = w;
                quietSince = System.nanoTime();
            }
        }
    }
}
