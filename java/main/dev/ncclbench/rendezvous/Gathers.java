package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * Gathers over every local rank of this process at once: each gather is collective, so one thread per local
 * rank. Used for what the whole job agrees on outside the sweep (the run folder, the rank list, the end barrier).
 */
public final class Gathers {
    private Gathers() {
    }

    /** Every rank's payload, as local rank 0 sees it. */
    public static byte[][] allLocal(List<ControlPlane> planes, String tag, byte[] payload) {
        return allLocal(planes, tag, local -> payload);
    }

    /** @param payloadOf the payload of each local rank */
    public static byte[][] allLocal(List<ControlPlane> planes, String tag, IntFunction<byte[]> payloadOf) {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        AtomicReference<byte[][]> first = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < planes.size(); i++) {
            ControlPlane p = planes.get(i);
            int local = i;
            Thread t = new Thread(() -> {
                try {
                    byte[][] all = p.allGather(tag, payloadOf.apply(local));
                    if (local == 0) {
                        first.set(all);
                    }
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }, "ncclbench-" + tag);
            threads.add(t);
            t.start();
        }
        joinAll(threads);
        if (failure.get() != null) {
            throw failure.get();
        }
        return first.get();
    }

    /** Every local rank's {@link ControlPlane#exitTogether}, at once. */
    public static void exitTogether(List<ControlPlane> planes) {
        List<Thread> threads = new ArrayList<>();
        for (ControlPlane p : planes) {
            Thread t = new Thread(p::exitTogether, "ncclbench-exit");
            threads.add(t);
            t.start();
        }
        try {
            joinAll(threads);
        } catch (RuntimeException e) {
            // interrupted while ending: end
        }
    }

    /** Waits for every thread; an interrupt ends the run as a failure, not silently. */
    public static void joinAll(List<Thread> threads) {
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new NcclbenchException(ExitCode.RUN_FAILED, "interrupted");
            }
        }
    }
}
