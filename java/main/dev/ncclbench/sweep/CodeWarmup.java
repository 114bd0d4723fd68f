package dev.ncclbench.sweep;

import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.spec.Sizes;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Before a collective's first timed size, on a backend whose time is the host's (the socket backend), its code
 * runs until the JIT has compiled it, whatever -w says: -w 1 is one call, and the first sizes were timed half
 * interpreted, the compiler then taking a CPU from the ranks inside later timed loops
 * (docs/benchmarks.md#codewarmup). The calls are the sweep's own (its collective, type, op and root, in and out of
 * place, at its first size, at every 16x step up to 64 MiB and at its largest size up to that), so that what is
 * compiled is what is timed: code compiled for another op or placement is thrown away and compiled again when
 * the sweep reaches it. A dear first size (a millisecond a call) makes its many calls through a cheaper stand-in
 * on the same code path ({@link #standIn}), with a few of its own between them.
 *
 * <p>Between chunks of calls (up to {@value #CHUNK}, about 20 ms) each rank sleeps while its compiler works, then
 * the ranks vote (any "more" goes on, the smallest chunk asked for is made), so every rank makes the same calls.
 * A rank wants more until it has made its calls per placement and then {@value #SETTLE_CALLS} more (200 ms of
 * them for a first size of a millisecond or more) that cost its compiler next to nothing, within a budget that
 * grows with -n (a two-iteration check needs no seconds of warm-up); a JVM that has already warmed the same
 * collective, type, op and rank count (tests, fleet, -N) wants only the quiet compiler. Last, the sweep's own loops
 * run once untimed while they are cheap ({@link #rehearse}): what their full -n counts still push past C2's
 * thresholds is compiled then, not inside a timed loop.
 */
final class CodeWarmup {
    /** Calls per placement at the first size: {@value #CALLS_PER_ITER} per timed iteration, at most this many. */
    static final int MIN_CALLS = 10_000;
    static final int CALLS_PER_ITER = 50;
    static final int CHUNK = 25;
    private static final long CHUNK_NANOS = 20_000_000L;
    /** Larger sizes: at least this many calls and this long at every 16x step up to {@link #LARGEST_BYTES}. */
    static final int FEW_CALLS = 3;
    static final long FEW_NANOS = 30_000_000L;
    static final long LARGEST_BYTES = 64L << 20;
    /** Steps up to this size run between the first size's chunks; larger ones after, a few calls each. */
    static final long MIXED_BYTES = 4L << 20;
    /**
     * The whole warm-up takes at most {@link #BUDGET_PER_ITER_NANOS} per timed iteration, and at most this: less
     * per iteration left C2 compiling inside a fresh -n 20 sweep's timed loops (docs/benchmarks.md#codewarmup).
     */
    static final long BUDGET_NANOS = 5_000_000_000L;
    static final long BUDGET_PER_ITER_NANOS = 150_000_000L;
    /** A first size from this one (half a millisecond a call on loopback) is warmed through a stand-in. */
    static final long STAND_IN_FROM_BYTES = 512L << 10;
    static final int STAND_IN_STEPS = 4;
    /** Between chunks: the compiler counts as done when idle this long. */
    static final long SETTLE_QUIET_NANOS = 3_000_000L;
    /**
     * Until quiet: this many calls at the first size in a row whose chunks each cost the compiler at most
     * {@link #SETTLE_WORK_NANOS} (some compiler work never stops: the statistics, the control plane's threads).
     */
    static final int SETTLE_CALLS = 1_000;
    static final long SETTLE_WORK_NANOS = 1_000_000L;
    static final long SETTLE_NANOS = 200_000_000L;
    /** The rehearsal's limits, by the cost model (us): one size's loops in both placements, and all of them. */
    static final double REHEARSAL_LOOP_US = 400_000;
    static final double REHEARSAL_US = 500_000;
    /** The cost model of {@link #mixedCalls}: a small call's latency on loopback (us). */
    static final double MODEL_LATENCY_US = 10;
    /** What this JVM has warmed: collective, type, op and rank count. */
    private static final java.util.Set<String> WARMED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final ControlPlane plane;
    private final Timed timed;
    private final long budget;
    private int round;
    private long jitWork = -1;

    /**
     * The sweep's own timed loop at a size and placement, with this many iterations, checked or not (results
     * dropped); returns its time per call in microseconds (the loop's alone, as every rank measured it).
     */
    interface Timed {
        double run(long size, boolean inPlace, int iters, boolean check);
    }

    private CodeWarmup(ControlPlane plane, Timed timed, long budget) {
        this.plane = plane;
        this.timed = timed;
        this.budget = budget;
    }

    /** For the result's header: what it costs and why, in short; the whole story in docs/benchmarks.md#codewarmup. */
    static String note() {
        return "the code paths are warmed (JIT) before each collective's first timed size, whatever -w: in and out of place,"
                + " " + CALLS_PER_ITER + " calls per -n iteration (at most " + MIN_CALLS + ") at the first size and a few at"
                + " every 16x step up to " + Sizes.human(LARGEST_BYTES) + ", until the compiler is idle, within "
                + BUDGET_PER_ITER_NANOS / 1_000_000 + " ms per -n iteration and " + BUDGET_NANOS / 1_000_000_000 + " s;"
                + " then the sweep's own loops once, untimed (about " + (long) (REHEARSAL_US / 1000) + " ms); before each"
                + " timed loop up to " + Sizes.human(SweepEngine.AWAKE_BYTES) + ", untimed calls for about "
                + (long) SweepEngine.AWAKE_US + " us so that every rank's CPU is awake (docs/benchmarks.md#codewarmup)";
    }

    /**
     * @param sizes the sweep's sizes for this collective, in order
     * @param tag   names the collective and root in the votes' tags
     * @param key   what this JVM warms: a second sweep of the same collective, type, op and rank count needs less
     */
    static void run(ControlPlane plane, List<Long> sizes, int iters, String tag, String key, Timed timed,
                    LongFunction<String> codePath) {
        if (sizes.isEmpty()) {
            return;
        }
        CodeWarmup w = new CodeWarmup(plane, timed, Math.min(BUDGET_NANOS, Math.max(50_000_000L, iters * BUDGET_PER_ITER_NANOS)));
        int min = WARMED.contains(key) ? 0 : (int) Math.min(MIN_CALLS, (long) iters * CALLS_PER_ITER);
        long t0 = System.nanoTime();
        long first = sizes.get(0);
        // every rank picks the same stand-in: it depends on the size and on the backend's settings, which the
        // checks before the sweep found equal on every rank
        long at = standIn(first, codePath);
        List<Long> steps = steps(sizes);
        // The small steps run between the chunks of the first size: the compiler then sees every branch of the
        // code before it compiles it, instead of compiling it again inside a timed loop
        // (docs/benchmarks.md#codewarmup).
        List<Long> mixed = new ArrayList<>();
        if (at != first) {
            mixed.add(first);
        }
        mixed.addAll(steps.stream().filter(x -> x <= MIXED_BYTES).toList());
        w.loop(at, min, false, t0, tag, mixed);
        for (long size : steps) {
            if (size > MIXED_BYTES) {
                for (boolean inPlace : new boolean[] {false, true}) {
                    w.few(size, inPlace, min > 0, t0, tag);
                }
            }
        }
        // the larger steps' branches reach the compiler here, with the stand-in's and the first size's calls
        w.loop(at, 0, true, t0, tag, at == first ? List.of() : List.of(first));
        if (min > 0) {
            w.rehearse(sizes, iters, tag);
        }
        WARMED.add(key);
    }

    /**
     * The size the warm-up's many calls run at: the first size, or for a dear one the smallest of first/4,
     * first/16, ... (at most {@value #STAND_IN_STEPS} steps) on the same code path, every size between on it
     * too. A 2 MiB all_reduce takes a millisecond: a second's budget made 150 calls, and C2 compiled the transfer
     * loop inside the timed loops; at 128 KiB, on the same path, the same code gets ten times the calls.
     */
    static long standIn(long first, LongFunction<String> codePath) {
        if (first < STAND_IN_FROM_BYTES) {
            return first;
        }
        String path = codePath.apply(first);
        if (path == null) {
            return first;
        }
        long best = first;
        for (int k = 1; k <= STAND_IN_STEPS; k++) {
            long size = first >> (2 * k);
            if (size < 8 || !path.equals(codePath.apply(size))) {
                break;
            }
            best = size;
        }
        return best;
    }

    /**
     * The sizes warmed besides the first: every 16x step up to {@link #LARGEST_BYTES} (other algorithms,
     * partial reads, other threads), and the largest size up to it. Between two steps a size's own branches go
     * untaken: a sweep of 2 and 8 MiB warmed only 2 MiB, and the first 8 MiB loop recompiled the transfer loop.
     */
    static List<Long> steps(List<Long> sizes) {
        List<Long> steps = new ArrayList<>();
        long last = sizes.get(0);
        long largest = last;
        for (long size : sizes) {
            if (size >= last * 16 && size <= LARGEST_BYTES) {
                steps.add(size);
                last = size;
            }
            if (size <= LARGEST_BYTES) {
                largest = Math.max(largest, size);
            }
        }
        if (largest > last) {
            steps.add(largest);
        }
        return steps;
    }

    /**
     * The sweep's own timed loops once, untimed, size by size in its order while they are cheap: by the cost model
     * ({@link #callUs}) each size's loops in both placements at most {@link #REHEARSAL_LOOP_US} and all at
     * most {@link #REHEARSAL_US} ({@link #rehearsed}), and by the clock too: before each size the ranks vote, and
     * any rank that the last size's time says would pass the budget stops them all (the model is loopback's; on
     * a 1 Gbit link a loop takes eight times as long). The chunks above call a loop with at most {@value #CHUNK}
     * iterations, so without this the sweep's own loops carried the rest of the counts to C2's thresholds inside a
     * timed loop (docs/benchmarks.md#codewarmup).
     */
    private void rehearse(List<Long> sizes, int iters, String tag) {
        long start = System.nanoTime();
        double lastUs = 0;
        long lastSize = 0;
        for (long size : rehearsed(sizes, iters)) {
            double next = loopUs(size, iters);
            if (lastUs > 0) {
                next = Math.max(next, 2.0 * iters * lastUs * callUs(size) / callUs(lastSize));
            }
            boolean stop = (System.nanoTime() - start) / 1e3 + next > REHEARSAL_US;
            if (vote(tag + " rehearsal", stop ? 1 : 0) != 0) {
                return;
            }
            double oopUs = timed.run(size, false, iters, true);
            double ipUs = timed.run(size, true, iters, true);
            lastUs = (oopUs + ipUs) / 2;
            lastSize = size;
        }
    }

    /** The cost model's time of a call (us): {@value #MODEL_LATENCY_US} us and 1 GB/s (also {@link #mixedCalls}'). */
    static double callUs(long size) {
        return MODEL_LATENCY_US + size / 1e3;
    }

    /** The model's time of one size's loops in both placements (us). */
    private static double loopUs(long size, int iters) {
        return 2.0 * iters * callUs(size);
    }

    /** The sizes {@link #rehearse} may run by the cost model, in the sweep's order. */
    static List<Long> rehearsed(List<Long> sizes, int iters) {
        List<Long> out = new ArrayList<>();
        double spent = 0;
        for (long size : sizes) {
            double us = loopUs(size, iters);
            if (us <= REHEARSAL_LOOP_US && spent + us <= REHEARSAL_US) {
                spent += us;
                out.add(size);
            }
        }
        return out;
    }

    /** At least {@value #FEW_CALLS} calls and {@link #FEW_NANOS}, a vote before each (another JVM may be cold). */
    private void few(long size, boolean inPlace, boolean cold, long t0, String tag) {
        long start = System.nanoTime();
        for (int calls = 0; ; calls++) {
            long now = System.nanoTime();
            boolean more = cold && now - t0 < budget && (calls < FEW_CALLS || now - start < FEW_NANOS);
            if (vote(tag, more ? 1 : 0) == 0) {
                break;
            }
            timed.run(size, inPlace, 1, false);
        }
    }

    /**
     * Chunks of calls in and out of place, and calls at each mixed size, each after a vote, until no rank wants
     * more. Between chunks each rank first lets its compiler finish what the chunk queued, with no calls running:
     * on a machine with as many cores as ranks a compile that shares the CPUs with two polling ranks takes twice as
     * long and stretches every hand-off of the warm-up, so the budget went by with the timed path still in the
     * interpreter (C2 then compiled the sweep's loop and the socket path inside the first timed loops).
     */
    private void loop(long size, int minCalls, boolean untilQuiet, long t0, String tag, List<Long> mixed) {
        long perCall = 0;
        int sinceCompile = 0;
        long quietSince = System.nanoTime();
        for (int calls = 0; ; ) {
            if (settle(t0) > SETTLE_WORK_NANOS) {
                sinceCompile = 0;
                quietSince = System.nanoTime();
            }
            long now = System.nanoTime();
            // a first size of a millisecond or more makes few calls: for it a quiet SETTLE_NANOS is enough (a
            // small one's quiet stretch ends when a counter crosses C2's threshold: it needs the calls)
            boolean settled = sinceCompile >= SETTLE_CALLS
                    || perCall >= 1_000_000L && now - quietSince >= SETTLE_NANOS;
            boolean more = now - t0 < budget && (calls < minCalls || untilQuiet && !settled);
            // a chunk of about CHUNK_NANOS: the budget is checked between chunks, whatever the size
            int want = perCall <= 0 ? 1 : (int) Math.max(1, Math.min(CHUNK, CHUNK_NANOS / perCall));
            int chunk = vote(tag, more ? want : 0);
            if (chunk == 0) {
                break;
            }
            // checked too: the check's code is what runs right after each timed loop, compiled or not. The chunk is
            // sized by the loops' own time: with the set-up and the check counted, a 2 MiB chunk was one call
            double oopUs = timed.run(size, false, chunk, true);
            double ipUs = timed.run(size, true, chunk, true);
            perCall = Math.max(1, (long) ((oopUs + ipUs) / 2 * 1000));
            calls += chunk;
            sinceCompile += chunk;
            // the compiler check that runs before every timed loop: compiled now, not while the first loop runs
            for (int i = 0; i < 10; i++) {
                JitSettle.work();
            }
            for (long m : mixed) {
                int c = mixedCalls(chunk, size, m);
                timed.run(m, false, c, true);
                timed.run(m, true, c, true);
            }
        }
    }

    /**
     * Sleeps while this JVM's compiler works (it has not been idle for {@link #SETTLE_QUIET_NANOS}), within the
     * budget. Returns the compiler's work since the last call (ns, or the JVM's counter): what the last chunk's
     * calls queued.
     */
    private long settle(long t0) {
        long w = JitSettle.awaitQuiet(SETTLE_QUIET_NANOS, t0 + budget, 1);
        long since = jitWork >= 0 ? w - jitWork : Long.MAX_VALUE;
        jitWork = w;
        return since;
    }

    /**
     * Calls at a mixed size for a chunk of {@code chunk} calls at the first size: about as long as the chunk, by a
     * cost model of {@value #MODEL_LATENCY_US} us per call plus 1 GB/s, so a 2 KiB or 32 KiB step gets hundreds
     * of calls (enough for the compiler to see its own branches hot: the reduction's blocks, a partial read)
     * and a 4 MiB step one. Only sizes and the voted chunk go in, so every rank makes the same calls.
     */
    static int mixedCalls(int chunk, long first, long size) {
        double ratio = callUs(first) / callUs(size);
        return (int) Math.max(1, Math.min(chunk, Math.round(chunk * ratio)));
    }

    /**
     * One vote: 0 when no rank wants more, else the smallest chunk any rank asked for (every rank makes it). Counted
     * at rank 0 and sent back: O(N) bytes through the store, not every rank every vote.
     */
    private int vote(String tag, int want) {
        String name = tag + ": code warm-up " + round++;
        byte[][] all = plane.gather(name, ByteBuffer.allocate(4).putInt(want).array(), 0);
        int chunk = 0;
        for (byte[] b : all == null ? new byte[0][] : all) {
            int w = b.length == 4 ? ByteBuffer.wrap(b).getInt() : 0;
            if (w > 0) {
                chunk = chunk == 0 ? w : Math.min(chunk, w);
            }
        }
        return ByteBuffer.wrap(plane.broadcast(name + " result", ByteBuffer.allocate(4).putInt(chunk).array(), 0)).getInt();
    }

}
