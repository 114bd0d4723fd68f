package dev.ncclbench.sweep;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** On Linux the compiler's work is read from its threads' own CPU time, which only grows. */
class JitSettleTest {
    @Test
    void theCompilerThreadsAreFoundAndTheirTimeNeverGoesBack() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc here: the JVM's compile-time counter stands in");
        assertTrue(JitSettle.readsThreads(), "C1/C2 compiler threads in /proc/self/task/*/comm");
        long before = JitSettle.work();
        // by the time a test runs this JVM has compiled plenty: its compiler threads have used the CPU
        assertTrue(before > 1_000_000L, "compiler CPU time in ns: " + before);
        JitSettle.await(1);
        assertTrue(JitSettle.work() >= before);
    }
}
