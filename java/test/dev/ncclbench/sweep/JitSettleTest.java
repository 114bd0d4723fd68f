package dev.ncclbench.sweep;

import dev.ncclbench.launch.CpuBinding;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** On Linux the compiler's work is read from its threads' own schedstat (time on a CPU or waiting for one), which only grows. */
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

    @Test
    void aSchedstatLineCountsTheTimeOnACpuAndTheTimeWaitingForOne() {
        assertEquals(1234 + 5678, JitSettle.schedstat("1234 5678 9\n".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(-1, JitSettle.schedstat("1234\n".getBytes(StandardCharsets.US_ASCII)), "no second field");
        assertEquals(-1, JitSettle.schedstat("".getBytes(StandardCharsets.US_ASCII)));
    }

    /** Renices this test JVM's own compiler threads: only their share of a busy CPU changes, not what they compile. */
    @Test
    void theCompilerThreadsRunAtNice19AfterYieldingToTheRanks() throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux's /proc");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/renice")) || Files.isExecutable(Path.of("/bin/renice")),
                "needs renice (Debian: bsdutils, an essential package)");
        String note = CpuBinding.lowerCompilerPriority(JitSettle.compilerThreads());
        assertEquals("the JIT compiler's threads run at nice 19, below the ranks' (--cpu-bind none leaves them be)", note);
        int seen = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                String name = Files.readString(t.resolve("comm"));
                if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                    // fields after the command's closing parenthesis start at field 3 (state); nice is field 19
                    String stat = Files.readString(t.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
                    assertEquals("19", f[19 - 3], name.trim() + ": " + stat);
                    seen++;
                }
            }
        }
        assertTrue(seen > 0, "compiler threads in /proc/self/task");
    }
}
