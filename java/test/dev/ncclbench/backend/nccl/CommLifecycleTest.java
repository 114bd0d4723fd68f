package dev.ncclbench.backend.nccl;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Abort from any thread, destroy only when still open, never both; and only one caller does either. */
class CommLifecycleTest {
    @Test
    void aCloseOfAnOpenCommunicatorDestroysItOnce() {
        CommLifecycle c = new CommLifecycle();
        assertTrue(c.close());
        assertFalse(c.close());
        assertFalse(c.abort(), "a destroyed communicator is not aborted");
        assertEquals(CommLifecycle.State.CLOSED, c.state());
        assertFalse(c.aborted());
    }

    @Test
    void anAbortedCommunicatorIsNeverDestroyedAndStaysAborted() {
        CommLifecycle c = new CommLifecycle();
        assertTrue(c.abort());
        assertFalse(c.abort(), "ncclCommAbort once");
        assertFalse(c.close(), "abort freed it: ncclCommDestroy would touch freed memory");
        assertTrue(c.aborted(), "the owner's next call must still see the abort");
        assertEquals(CommLifecycle.State.ABORTED, c.state());
    }

    @Test
    void ofManyThreadsAbortingAtOnceExactlyOneCallsNcclCommAbort() throws InterruptedException {
        for (int round = 0; round < 50; round++) {
            CommLifecycle c = new CommLifecycle();
            CountDownLatch go = new CountDownLatch(1);
            AtomicInteger aborts = new AtomicInteger();
            AtomicInteger destroys = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                boolean owner = t == 0;
                Thread th = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (owner ? c.close() : c.abort()) {
                        (owner ? destroys : aborts).incrementAndGet();
                    }
                });
                threads.add(th);
                th.start();
            }
            go.countDown();
            for (Thread th : threads) {
                th.join();
            }
            assertEquals(1, aborts.get() + destroys.get(), "abort and destroy exclude each other");
        }
    }
}
