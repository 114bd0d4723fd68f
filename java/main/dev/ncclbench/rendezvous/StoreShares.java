package dev.ncclbench.rendezvous;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;

/**
 * The store's system calls on many connections at once, shared out between its thread and a few helpers. At every
 * size of a sweep of 1024 nodes the store reads 1024 requests and writes 1024 answers, each about 5-10 us of the
 * kernel's TCP: most of what a round costs it. Each connection of a share is touched by one thread only, and the
 * store's thread waits for every share before it touches any of them again, so nothing else about a connection
 * needs a lock; whatever a share finds (a connection to drop, a request to handle) is dealt with on the store's
 * thread afterwards.
 */
final class StoreShares {
    /** Connections at once before sharing pays: below, handing them over costs more than it saves. */
    static final int FROM = 128;
    /** Threads beside the store's: none on one core, at most 3 (rank 0's host runs the job's ranks too). */
    private static final int HELPERS = Math.min(3, Runtime.getRuntime().availableProcessors() - 1);

    /** Started the first time they are needed: a small job's store starts none. */
    private ExecutorService helpers;

    /** How many threads share a round's connections: the store's and its helpers. */
    static int threads() {
        return HELPERS + 1;
    }

    /** Whether {@code conns} connections at once are shared out. */
    boolean worth(int conns) {
        return HELPERS > 0 && conns >= FROM;
    }

    /**
     * {@code each} on every one of {@code conns} (the store's connections), share by share side by side, the calling
     * thread taking one; returns those for which it returned true, in no particular order.
     */
    <T> List<T> run(List<T> conns, Predicate<T> each) {
        if (helpers == null) {
            helpers = Executors.newFixedThreadPool(HELPERS, r -> {
                Thread t = new Thread(r, "ncclbench-store-share");
                t.setDaemon(true);
                return t;
            });
        }
        int shares = HELPERS + 1;
        List<Future<List<T>>> others = new ArrayList<>(HELPERS);
        for (int s = 1; s < shares; s++) {
            int share = s;
            others.add(helpers.submit(() -> share(conns, share, shares, each)));
        }
        List<T> flagged = new ArrayList<>(share(conns, 0, shares, each));
        boolean interrupted = false;
        for (Future<List<T>> f : others) {
            while (true) {
                try {
                    flagged.addAll(f.get());
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the share's connections are its own until it is done: wait for it
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a share of the store's connections failed", e.getCause());
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return flagged;
    }

    /** Connections {@code share}, {@code share + shares}, ... of {@code conns}: those {@code each} flagged. */
    private static <T> List<T> share(List<T> conns, int share, int shares, Predicate<T> each) {
        List<T> flagged = new ArrayList<>(0);
        for (int i = share; i < conns.size(); i += shares) {
            if (each.test(conns.get(i))) {
                flagged.add(conns.get(i));
            }
        }
        return flagged;
    }

    /** Ends the helpers, if any started: the store's thread is ending. */
    void close() {
        if (helpers != null) {
            helpers.shutdownNow();
        }
    }
}
