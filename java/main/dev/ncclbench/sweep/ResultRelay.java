package dev.ncclbench.sweep;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.results.Measurement;
import dev.ncclbench.results.SampleStats;
import dev.ncclbench.spec.RunSpec;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * A placement's figures on their way to rank 0, which combines them by -a. They travel with the next placement's
 * start barrier: a rank's arrival there carries the figures of the placement it just measured, and the barrier's
 * release (or the job's verdict) is the "go on". A size then costs the store two rounds (its two start barriers),
 * not four, and the barrier stays where nccl-tests has it: no rank starts a timed loop before every rank has
 * arrived. The last placement of a pass goes alone ({@link #flush}); a code warm-up's at once ({@link #now}).
 * Rank 0 receives O(N) bytes a placement, every other rank O(1).
 */
final class ResultRelay {
    /** A placement's figures: rank 0's combined over the ranks, another rank's its own. */
    record Placement(Measurement measurement, SampleStats stats, int wrongRanks, String algorithm) {
    }

    /** What one placement measured on this rank, before the others' figures are known. */
    record Local(RunSpec spec, Collective coll, Counts counts, double seconds, double cpuSeconds, long wrong,
                 double[] samples, String algorithm, String tag) {
        /** [seconds, wrong, samples...]: 16 + 8 x iters bytes. */
        byte[] payload() {
            ByteBuffer mine = ByteBuffer.allocate(8 * (2 + samples.length));
            mine.putDouble(seconds).putDouble(wrong);
            for (double s : samples) {
                mine.putDouble(s);
            }
            return mine.array();
        }
    }

    private final ControlPlane plane;
    private final int n;
    private Local pending;
    private final ArrayDeque<Placement> done = new ArrayDeque<>();

    ResultRelay(ControlPlane plane, int n) {
        this.plane = plane;
        this.n = n;
    }

    /** Every rank at the start barrier {@code tag}; the pending placement's figures go to rank 0 with it. */
    void startBarrier(String tag) {
        if (pending == null) {
            plane.barrier(tag);
            return;
        }
        Local p = pending;
        pending = null;
        done.add(combine(p, plane.gather(tag, p.payload(), 0)));
    }

    /** {@code mine}'s figures go with the next start barrier, or {@link #flush}. */
    void hold(Local mine) {
        if (pending != null) {
            throw new IllegalStateException("two placements' figures pending: " + pending.tag() + ", " + mine.tag());
        }
        pending = mine;
    }

    /** {@code mine}'s figures gathered at once, for a caller that needs them now (the code warm-up's pace). */
    Placement now(Local mine) {
        if (pending != null) {
            throw new IllegalStateException("a placement's figures pending: " + pending.tag());
        }
        return combine(mine, plane.gather(mine.tag() + ": results", mine.payload(), 0));
    }

    /** The pending figures, gathered alone: the end of a pass's sizes. */
    void flush() {
        if (pending != null) {
            Local p = pending;
            pending = null;
            done.add(combine(p, plane.gather(p.tag() + ": results", p.payload(), 0)));
        }
    }

    /** How many placements are combined and not yet taken. */
    int ready() {
        return done.size();
    }

    Placement take() {
        return done.poll();
    }

    /** Rank 0: the figures of every control-plane member combined by -a; another rank ({@code all} null): its own. */
    private Placement combine(Local l, byte[][] all) {
        RunSpec spec = l.spec();
        Collective coll = l.coll();
        Counts counts = l.counts();
        int elt = spec.data().type().bytes();
        Placement p;
        if (all == null) {
            // not rank 0: its own time, for its code warm-up's pace (CodeWarmup); nothing of it is printed
            p = new Placement(new Measurement(l.seconds() * 1e6, coll.algbw(counts, elt, n, l.seconds()),
                    coll.busbw(counts, elt, n, l.seconds()), l.wrong(), l.wrong() > 0 ? 1 : 0), null, 0, l.algorithm());
        } else {
            p = combineAtRoot(l, all);
        }
        return spec.ncclTests().flags().reportCputime() == 0 ? p
                : new Placement(Passes.cputime(p.measurement, l.cpuSeconds()), p.stats, p.wrongRanks, p.algorithm);
    }

    private Placement combineAtRoot(Local l, byte[][] all) {
        RunSpec spec = l.spec();
        // one payload per control-plane member: a member may drive several ranks (-g), its figures cover them all
        int members = all.length;
        double[] times = new double[members];
        long wrongSum = 0;
        int wrongRanks = 0;
        double[][] perRankSamples = new double[members][];
        for (int r = 0; r < members; r++) {
            ByteBuffer b = ByteBuffer.wrap(all[r]);
            times[r] = b.getDouble();
            long w = (long) b.getDouble();
            if (w > 0) {
                wrongRanks++;
            }
            wrongSum += Math.max(0, w);
            perRankSamples[r] = new double[b.remaining() / 8];
            for (int i = 0; i < perRankSamples[r].length; i++) {
                perRankSamples[r][i] = b.getDouble();
            }
        }
        if (!(times[0] > 0)) {
            throw new NcclbenchException(ExitCode.INTERNAL, "a rank measured no time for " + l.coll().name());
        }
        double sec = SampleMath.combine(times, spec.timing().average());
        // nccl-tests' GatherProcessMaxIterTimes: each iteration's time is the slowest rank's, whatever -a says
        double[][] rows = SampleMath.rows(perRankSamples, l.samples().length);
        int elt = spec.data().type().bytes();
        Collective coll = l.coll();
        Measurement m = new Measurement(sec * 1e6, coll.algbw(l.counts(), elt, n, sec), coll.busbw(l.counts(), elt, n, sec),
                l.wrong() < 0 ? -1 : wrongSum, l.wrong() < 0 ? 0 : wrongRanks);
        boolean keepAll = spec.ncclTests().flags().outputFile() != null;
        return new Placement(m, SampleMath.stats(SampleMath.maxPerIteration(rows), spec.ncclTests().flags().perIterSkip(), rows,
                keepAll), wrongRanks, l.algorithm());
    }
}
