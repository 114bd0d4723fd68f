package dev.ncclbench.launch;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Which CPU each local rank's thread gets, when none, and that the binding really reaches the kernel. */
class CpuBindingTest {

    private static List<Integer> allowedHere() throws Exception {
        return CpuBinding.allowedCpus(Files.readAllLines(Path.of("/proc/self/status")));
    }

    @Test
    void readsTheAllowedListAsTheKernelWritesIt() {
        assertEquals(List.of(0, 1, 2, 3, 8, 10, 11),
                CpuBinding.allowedCpus(List.of("Name:\tjava", "Cpus_allowed:\tf0f", "Cpus_allowed_list:\t0-3,8,10-11")));
        assertEquals(List.of(5), CpuBinding.allowedCpus(List.of("Cpus_allowed_list:\t5")));
        assertEquals(List.of(), CpuBinding.allowedCpus(List.of("Name:\tjava")));
    }

    @Test
    void theSecondRankOfALoopbackJobTakesTheSecondCpu() throws Exception {
        List<Integer> allowed = allowedHere();
        // flags on loopback (the bench's launch): no local size from a launcher, every rank on this node
        LaunchInfo rank1 = new LaunchInfo(1, 2, 1, -1, null, 0, null, "flags");
        CpuBinding b = CpuBinding.plan(rank1, 1, "127.0.0.1:29500");
        if (allowed.size() >= 2) {
            assertTrue(b.note().endsWith("this process's rank on CPU " + allowed.get(1)), b.note());
        } else {
            assertTrue(b.note().contains("2 ranks share the 1 CPU"), b.note());
        }
    }

    @Test
    void ranksThatWouldShareACpuAreNotBound() throws Exception {
        int cpus = allowedHere().size();
        LaunchInfo crowded = new LaunchInfo(0, cpus + 1, 0, cpus + 1, "node0", 0, "job", "torchrun");
        CpuBinding b = CpuBinding.plan(crowded, 1, null);
        assertEquals("rank threads not bound to CPUs: " + (cpus + 1) + " ranks share the " + cpus + " CPU"
                + (cpus == 1 ? "" : "s") + " this process may use", b.note());
        assertNull(b.bindCurrentThread(0), "nothing to bind, nothing to report");
    }

    @Test
    void aLauncherThatDoesNotSayWhoSharesTheNodeLeavesThreadsUnbound() {
        LaunchInfo unknown = new LaunchInfo(3, 8, 0, -1, "node0", 29500, null, "pmi");
        assertTrue(CpuBinding.plan(unknown, 1, "node0:29500").note().contains("the launcher does not say"));
    }

    @Test
    void theBoundThreadRunsOnlyOnItsCpu() throws Exception {
        List<Integer> allowed = allowedHere();
        assumeTrue(allowed.size() >= 2, "one CPU only: binding to it proves nothing");
        LaunchInfo rank1 = new LaunchInfo(1, 2, 1, 2, null, 0, null, "flags");
        CpuBinding b = CpuBinding.plan(rank1, 1, null);
        AtomicReference<String> problem = new AtomicReference<>();
        AtomicReference<List<Integer>> after = new AtomicReference<>();
        Thread t = new Thread(() -> {
            problem.set(b.bindCurrentThread(0));
            try {
                after.set(CpuBinding.allowedCpus(Files.readAllLines(Path.of("/proc/thread-self/status"))));
            } catch (Exception e) {
                problem.set(e.toString());
            }
        });
        t.start();
        t.join();
        assertNull(problem.get());
        assertEquals(List.of(allowed.get(1)), after.get(), "the kernel's view of the thread after binding");
        assertEquals(allowed, allowedHere(), "the test's own thread (and the JVM's) stay unbound");
    }
}
