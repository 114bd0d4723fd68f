package dev.ncclbench.backend.socket;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The run queue a polling rank asks before it parks: read from the real /proc/loadavg, with real threads on it. */
class RunQueueTest {

    private static int parse(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        return RunQueue.parse(b, b.length);
    }

    @Test
    void theRunnableCountIsTheNumberBeforeTheSlashOfTheFourthField() {
        assertEquals(3, parse("0.52 0.58 0.59 3/229 12345\n"));
        assertEquals(117, parse("64.00 63.91 60.02 117/4096 998877\n"));
        assertEquals(-1, parse("0.52 0.58 0.59 /229 12345\n"), "no digits");
        assertEquals(-1, parse("0.52 0.58 0.59 3"), "cut short before the slash");
        assertEquals(-1, parse("not a loadavg line"));
        assertEquals(-1, parse(""));
    }

    @Test
    void moreBusyThreadsThanCpusIsCrowded() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/loadavg")), "needs Linux's /proc/loadavg");
        RunQueue queue = RunQueue.open();
        int cpus = Runtime.getRuntime().availableProcessors();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(cpus);
        List<Thread> spinners = new ArrayList<>();
        try {
            // cpus spinners and the caller: one more runnable thread than CPUs, whatever else the machine runs
            for (int i = 0; i < cpus; i++) {
                Thread t = new Thread(() -> {
                    started.countDown();
                    while (!stop.get()) {
                        Thread.onSpinWait();
                    }
                }, "run-queue-spinner-" + i);
                t.setDaemon(true);
                t.start();
                spinners.add(t);
            }
            started.await();
            int running = queue.running();
            assertTrue(running > cpus, "runnable " + running + " with " + cpus + " spinners and the caller");
            assertTrue(queue.crowded());
        } finally {
            stop.set(true);
            for (Thread t : spinners) {
                t.join();
            }
            queue.close();
        }
    }
}
