package dev.ncclbench.sweep;

import dev.ncclbench.backend.Call;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.backend.RankComm;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.results.ResultRow;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.Sizes;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One rank's sweep: sizes x collectives x roots x placements, timed as nccl-tests times them (a host
 * monotonic clock around a batch of back-to-back calls, streams drained, divided by iters x agg), checked
 * element by element, and combined across ranks through the control plane. Every rank runs the same loop;
 * rank 0 reports rows as they finish.
 */
final class SweepEngine {
    /** Up to this size a call costs less than waking a CPU: untimed calls after the start barrier ({@link #wakeCalls}). */
    static final long AWAKE_BYTES = 1L << 20;
    /**
     * How long (by {@link CodeWarmup#callUs}) the untimed calls after the start barrier last: the first calls after
     * a sleeping barrier are slow for a while, not for one call (docs/benchmarks.md#sweepengine).
     */
    static final double AWAKE_US = 500;
    /** At most this many: 49 at 8 B, 11 at 32 KiB, 1 from 512 KiB by the model. */
    static final int AWAKE_MAX_CALLS = 64;
    /** The sweep as asked; {@link #spec} is it with the type and op of the (-d all, -o all) pass in progress. */
    private final RunSpec base;
    private RunSpec spec;
    private final RankComm comm;
    private final ControlPlane plane;
    private final SweepListener listener;
    private final Runnable progress;
    private final int n;
    private final ResultRelay relay;
    /** The rows measured whose figures are on their way to rank 0 ({@link ResultRelay}), in order. */
    private final java.util.ArrayDeque<RowDue> rowsDue = new java.util.ArrayDeque<>();
    private int sequence;
    /** What this rank is doing, for the failure report: "#12 all_reduce 64 MiB out-of-place". */
    private volatile String step = "the start of the sweep";
    /** What the warm-ups in progress prepare, in the user's sizes: "the warm-up of all_reduce 1 MiB". */
    private String warmingUp = "the warm-up";

    /**
     * @param listener rank 0's listener, null on other ranks
     * @param progress called after each row on rank 0
     */
    SweepEngine(RunSpec spec, RankComm comm, ControlPlane plane, SweepListener listener, Runnable progress) {
        this.base = spec;
        this.spec = spec;
        this.comm = comm;
        this.plane = plane;
        this.listener = listener;
        this.progress = progress;
        this.n = comm.nranks();
        this.relay = new ResultRelay(plane, n);
    }

    void run() {
        for (int cycle = 0; cycle < base.iterations().repeat(); cycle++) {
            for (String name : base.collectives()) {
                Collective coll = base.collective(name);
                if (coll.skipOn(n) != null) {
                    continue; // as nccl-tests (hypercube off a power of two): the header says so (SweepRunner)
                }
                if (listener != null) {
                    listener.beginCollective(coll.name());
                }
                for (RunSpec pass : Passes.of(base, coll)) {
                    spec = pass;
                    runPass(coll, cycle);
                }
                if (listener != null) {
                    listener.endCollective(coll.name());
                }
            }
        }
    }

    /** One collective with one type and op: nccl-tests' TimeTest for each root. */
    private void runPass(Collective coll, int cycle) {
        List<Long> sizes = Passes.sizesOf(spec, coll, n);
        List<Integer> roots = new ArrayList<>();
        if (coll.rooted() && spec.data().root() == -1) {
            for (int r = 0; r < n; r++) {
                roots.add(r);
            }
        } else {
            roots.add(coll.rooted() ? spec.data().root() : -1);
        }
        for (int root : roots) {
            warmingUp = "the warm-up of " + coll.name() + (sizes.isEmpty() ? ""
                    : " " + Sizes.human(coll.counts(sizes.get(0) / spec.data().type().bytes(), spec.data().type().bytes(), n).sizeBytes(spec.data().type())))
                    + (coll.rooted() && root >= 0 ? " root " + root : "");
            step = warmingUp;
            warmUp(coll, root);
            if (CallPathWarmup.needed(spec, comm) && !sizes.isEmpty()) {
                int elt = spec.data().type().bytes();
                Counts smallest = coll.counts(sizes.get(0) / elt, elt, n);
                CallPathWarmup.run(spec, comm.prepare(call(coll, smallest, root, false)),
                        comm.prepare(call(coll, smallest, root, true)));
            }
            if (!comm.capabilities().contains(Capability.COMPILED_DATA_PATH)) {
                int elt = spec.data().type().bytes();
                String key = coll.name() + "/" + spec.data().type().label() + "/" + spec.data().op().label() + "/" + n;
                CodeWarmup.run(plane, sizes, spec.iterations().iters(), coll.name() + " root " + root, key, (size, inPlace, iters, check) ->
                        relay.now(measure(coll, coll.counts(size / elt, elt, n), root, inPlace, iters, true, check))
                                .measurement().timeUs(),
                        size -> codePath(coll, coll.counts(size / elt, elt, n), root));
            }
        }
        if (!comm.capabilities().contains(Capability.COMPILED_DATA_PATH)) {
            // every rank done with the warm-ups' exchanges before any closes a connection
            plane.barrier(coll.name() + ": warm-ups done");
            comm.beforeTimedSizes(sizes.isEmpty() ? 0 : Collections.max(sizes));
        }
        for (long size : sizes) {
            int elt = spec.data().type().bytes();
            Counts counts = coll.counts(size / elt, elt, n);
            for (int root : roots) {
                rowsDue.add(new RowDue(coll, counts, root, cycle));
                timed(coll, counts, root, false);
                timed(coll, counts, root, true);
            }
        }
        relay.flush();
        rowsDone();
    }

    private record RowDue(Collective coll, Counts counts, int root, int cycle) {
    }

    /** A timed placement; its figures reach rank 0 with the next start barrier, and the rows complete by then print. */
    private void timed(Collective coll, Counts counts, int root, boolean inPlace) {
        try {
            relay.hold(measure(coll, counts, root, inPlace, spec.iterations().iters(), false, true));
        } finally {
            rowsDone(); // a failure in this placement keeps the rows measured before it
        }
    }

    /** Rank 0 reports every row whose two placements' figures have arrived; the other ranks drop theirs. */
    private void rowsDone() {
        while (relay.ready() >= 2 && !rowsDue.isEmpty()) {
            ResultRelay.Placement oop = relay.take();
            ResultRelay.Placement ip = relay.take();
            RowDue due = rowsDue.poll();
            if (listener != null) {
                Collective coll = due.coll();
                Counts counts = due.counts();
                ResultRow row = new ResultRow(coll.name(), counts.sizeBytes(spec.data().type()), counts.paramCount(),
                        spec.data().type().label(), coll.reduces() ? spec.data().op().label() : "none", due.root(),
                        oop.measurement(), ip.measurement(), oop.stats(), ip.stats(), null, due.cycle(), oop.algorithm());
                listener.row(row, oop.wrongRanks(), ip.wrongRanks());
                progress.run();
            }
        }
    }

    /** The backend's code path for a call of this size (Operation#codePath), or null. */
    private String codePath(Collective coll, Counts counts, int root) {
        try (Operation op = comm.prepare(call(coll, counts, root, false))) {
            return op.codePath();
        }
    }

    /**
     * One placement as nccl-tests' BenchTime: fill, one untimed synchronising call (also with -w 0), a barrier
     * (on a host-timed backend up to 1 MiB, untimed calls after it for about 0.5 ms, to wake every rank), then the timed
     * loop: per iteration a -m group of calls (call index i x m + a shifts the buffers), -z 1 and 2 wait after
     * each iteration (1 also barriers, timed), -z 3 waits and barriers untimed; with -G the loop is captured into
     * a graph and only its replays are timed. The barrier carries the previous placement's figures ({@link ResultRelay}).
     *
     * @param warm  a code warm-up call ({@link CodeWarmup}): no wait for the compiler
     * @param check whether to check the results (-c) after the loop
     */
    private ResultRelay.Local measure(Collective coll, Counts counts, int root, boolean inPlace, int iters, boolean warm,
                                      boolean check) {
        int agg = spec.iterations().aggIters();
        int z = spec.timing().blocking();
        boolean graph = spec.devices().cudaGraph() > 0;
        double seconds;
        double cpuSeconds;
        double[] samples = new double[iters];
        long wrong = -1;
        String algorithm;
        // a host-memory backend reduces on the CPU; a JVM data path is compiled while it runs
        boolean hostMemory = !comm.capabilities().contains(Capability.DEVICE_MEMORY);
        boolean jitted = !comm.capabilities().contains(Capability.COMPILED_DATA_PATH);
        // an event-timed backend launches asynchronously: its samples come from the device, not the host's clock
        boolean events = comm.capabilities().contains(Capability.EVENT_TIMING);
        try (Operation op = comm.prepare(call(coll, counts, root, inPlace))) {
            algorithm = op.algorithm();
            // nccl-tests fills before the sync call only when it checks (BenchTime's initData under datacheck); a host
            // backend always fills, since its reductions run on the CPU, where leftover bytes can be slow denormals
            if (hostMemory || spec.data().checkIters() > 0) {
                op.fill();
            }
            op.launch(0);
            op.drain();
            String tag = tag(coll, counts, root, inPlace);
            if (warm) {
                // a hang or a signal here names what the user asked for, not the warm-up's stand-in size:
                // "#7 the warm-up of all_reduce 1 MiB"; the barrier keeps the exact tag, the same on every rank
                int sp = tag.indexOf(' ');
                tag = tag.substring(0, sp) + " code warm-up," + tag.substring(sp); // not a regex: compiled mid-sweep
                step = tag.substring(0, sp) + " " + warmingUp;
            } else if (jitted) {
                // a JVM data path only: a library's kernels do not wait for the host's compiler
                JitSettle.await(spec.iterations().iters());
            }
            relay.startBarrier(tag + ": start");
            // The barrier waits asleep, and a sleeping rank's CPU may be slow to wake (docs/benchmarks.md#sweepengine).
            // Untimed calls return only when every rank is on a CPU, as nccl-tests' spinning barrier does; the size
            // alone decides how many, so every rank makes the same calls.
            for (int k = !hostMemory ? 0 : wakeCalls(counts.sizeBytes(spec.data().type()), n); k > 0; k--) {
                op.launch(0);
                op.drain();
            }
            boolean captured = graph && op.beginCapture();
            // an asynchronous backend's host time per iteration is its enqueue time: only device events (-I) say more
            boolean perIter = !events || spec.devices().perIterTiming() > 0;
            if (events && perIter) {
                op.beginTimed(iters, z == 3);
            }
            long t0 = System.nanoTime();
            double collOnly = timedLoop(op, iters, agg, z, captured, tag, samples, t0);
            if (z != 3) {
                op.markStart(iters);
            }
            if (captured) {
                op.endCapture();
                plane.barrier(tag + ": graph");
                t0 = System.nanoTime();
                for (int g = 0; g < spec.devices().cudaGraph(); g++) {
                    op.launchGraph();
                }
            }
            // -C: nccl-tests' cputime, the host's time until the last call was issued, before the wait
            cpuSeconds = (z == 3 && !captured ? collOnly : (System.nanoTime() - t0) / 1e9)
                    / ((double) iters * agg * (captured ? spec.devices().cudaGraph() : 1));
            op.drain();
            double elapsed = z == 3 && !captured ? collOnly : (System.nanoTime() - t0) / 1e9;
            seconds = elapsed / ((double) iters * agg * (captured ? spec.devices().cudaGraph() : 1));
            double[] device = op.batchSamplesUs();
            if (captured || !perIter) {
                samples = new double[0]; // none rather than enqueue times (or, under -G, the capture loop's)
            } else if (device != null && device.length == iters) {
                for (int i = 0; i < iters; i++) {
                    samples[i] = device[i] / agg;
                }
            }
            if (spec.data().checkIters() > 0 && check) {
                wrong = 0;
                // a code warm-up checks once: that compiles the check, and -c 200 made the warm-up of a 1 MiB sweep
                // take minutes before its first row
                int checks = warm ? 1 : spec.data().checkIters();
                for (int c = 0; c < checks && wrong >= 0; c++) {
                    op.fill();
                    op.launch(0);
                    op.drain();
                    long w = op.verify();
                    wrong = w < 0 ? -1 : wrong + w;
                }
            }
            if (events && !perIter && !graph && !warm) {
                samples = Iterations.eventSamples(op, iters, agg);
            }
        }
        // the results' own step number, as when they went alone: "#13 all_reduce 64 MiB out-of-place"
        return new ResultRelay.Local(spec, coll, counts, seconds, cpuSeconds, wrong, samples, algorithm,
                tag(coll, counts, root, inPlace));
    }

    /**
     * The untimed calls after the start barrier on a host-timed backend: about {@link #AWAKE_US} of them, 0 above
     * 1 MiB. The model's call is a 2-rank call; a small call of n ranks is log2(n) steps of a tree or recursive
     * doubling. Up to 8 ranks the count stays as measured; beyond, it falls with the steps, so that the calls still
     * last about {@link #AWAKE_US}: at 1024 ranks 49 a placement were more untimed calls than timed ones
     * (docs/benchmarks.md#sweepengine).
     */
    static int wakeCalls(long bytes, int nranks) {
        if (bytes > AWAKE_BYTES) {
            return 0;
        }
        int steps = 32 - Integer.numberOfLeadingZeros(Math.max(1, nranks - 1));
        double perCall = CodeWarmup.callUs(bytes) * Math.max(1.0, steps / 3.0);
        return (int) Math.max(1, Math.min(AWAKE_MAX_CALLS, AWAKE_US / perCall));
    }

    /**
     * The timed iterations, alone in a method of their own: a compile that their count triggers (an on-stack
     * replacement of this loop) then takes milliseconds, not the half second it took inside measure
     * (docs/benchmarks.md#sweepengine).
     * Fills {@code samples} (us per iteration); returns the collectives' own time under -z 3 (s).
     */
    private double timedLoop(Operation op, int iters, int agg, int z, boolean captured, String tag, double[] samples,
                             long t0) {
        long last = t0;
        double collOnly = 0;
        for (int i = 0; i < iters; i++) {
            long it0 = System.nanoTime();
            Iterations.one(op, i, agg);
            if (!captured) {
                switch (z) {
                    case 1: op.drain(); plane.barrier(tag + ": -z barrier " + i); break;
                    case 2: op.drain(); break;
                    case 3:
                        op.drain();
                        op.markStop(i);
                        collOnly += (System.nanoTime() - it0) / 1e9;
                        plane.barrier(tag + ": -z barrier " + i);
                        break;
                    default: break;
                }
            }
            long now = System.nanoTime();
            samples[i] = (now - last) / 1e3 / agg;
            last = now;
        }
        return collOnly;
    }

    /**
     * nccl-tests' warm-up: before a collective's sweep, -w out-of-place calls at every size from -b to -e
     * doubling (whatever -f says), then one wait.
     */
    private void warmUp(Collective coll, int root) {
        if (spec.iterations().warmupIters() == 0) {
            return;
        }
        int elt = spec.data().type().bytes();
        for (long size = spec.range().minBytes(); size <= spec.range().maxBytes(); size = Math.max(size * 2, 1)) {
            Counts counts = coll.counts(size / elt, elt, n);
            try (Operation op = comm.prepare(call(coll, counts, root, false))) {
                for (int w = 0; w < spec.iterations().warmupIters(); w++) {
                    op.launch(w);
                }
                op.drain();
            }
            if (size > spec.range().maxBytes() / 2) {
                break;
            }
        }
    }

    private Call call(Collective coll, Counts counts, int root, boolean inPlace) {
        return new Call(coll, counts, spec.data().type(), spec.data().op(), root, inPlace);
    }

    private String tag(Collective coll, Counts counts, int root, boolean inPlace) {
        // read by people when a rank does not arrive: "#12 all_reduce 64 MiB out-of-place"
        step = "#" + (sequence++) + " " + coll.name() + " " + Sizes.human(counts.sizeBytes(spec.data().type()))
                + (root >= 0 && coll.rooted() ? " root " + root : "") + (inPlace ? " in-place" : " out-of-place");
        return step;
    }

    /** The step in progress or last begun. */
    String step() {
        return step;
    }
}
