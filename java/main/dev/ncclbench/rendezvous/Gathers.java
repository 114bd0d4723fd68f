package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
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
        return onEveryLocal(planes, tag, (p, local) -> p.allGather(tag, payloadOf.apply(local)));
    }

    /** Every rank's payload on the process of rank 0 (as its local rank 0 sees it), null on the others: O(N) bytes. */
    public static byte[][] toRankZero(List<ControlPlane> planes, String tag, IntFunction<byte[]> payloadOf) {
        return onEveryLocal(planes, tag, (p, local) -> p.gather(tag, payloadOf.apply(local), 0));
    }

    /** Rank 0's payload on every process ({@code payload} is used only there). */
    public static byte[] fromRankZero(List<ControlPlane> planes, String tag, byte[] payload) {
        return onEveryLocal(planes, tag, (p, local) -> p.broadcast(tag, payload, 0));
    }

    /** Every local rank at the barrier {@code tag}. */
    public static void barrier(List<ControlPlane> planes, String tag) {
        onEveryLocal(planes, tag, (p, local) -> {
            p.barrier(tag);
            return null;
        });
    }

    /** {@code call} on every local rank at once (each is collective); local rank 0's result. */
    private static <T> T onEveryLocal(List<ControlPlane> planes, String tag, BiFunction<ControlPlane, Integer, T> call) {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        AtomicReference<T> first = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < planes.size(); i++) {
            ControlPlane p = planes.get(i);
            int local = i;
            Thread t = new Thread(() -> {
                try {
                    T got = call.apply(p, local);
                    if (local == 0) {
                        first.set(got);
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
