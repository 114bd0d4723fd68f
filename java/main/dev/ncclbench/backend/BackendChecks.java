package dev.ncclbench.backend;

import dev.ncclbench.spec.Capability;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.Sizes;
import dev.ncclbench.spec.SweepFlag;

import java.util.ArrayList;
import java.util.List;

/** What a resolved spec asks of the chosen backend, checked before anything runs: exit 2 with one sentence. */
public final class BackendChecks {
    private BackendChecks() {
    }

    /**
     * Flags that would do nothing on this backend are refused, naming the flag and the backends that have it:
     * a header or a JSON claiming "-g 2" on a backend that ignored it would mislead. Checked on the spec as asked;
     * which flag needs what is {@link SweepFlag#needs}.
     */
    public static void refuseIdleFlags(Backend backend, RunSpec asked) {
        NcclTestsChecks.refuse(backend, asked);
        for (SweepFlag f : SweepFlag.values()) {
            if (f.needs() != null && f.isSet(asked) && !backend.capabilities().contains(f.needs())) {
                throw NcclbenchException.usage(idle(backend, f, asked));
            }
        }
    }

    /** "-g 2 does nothing on the socket backend; it is a flag of the nccl backend (--backend nccl)". */
    private static String idle(Backend backend, SweepFlag f, RunSpec asked) {
        List<String> have = new ArrayList<>();
        Backends.all().stream().filter(b -> b.capabilities().contains(f.needs())).forEach(b -> have.add(b.name()));
        // nccl-tests' own flags say so first: a nccl-tests command line is refused only for wanting a GPU
        boolean ncclTestsFlag = f.isNcclTests() && !backend.capabilities().contains(Capability.DEVICE_MEMORY);
        return (ncclTestsFlag ? "nccl-tests flag " + f.given(asked) + " needs a GPU: it " : f.given(asked) + " ")
                + "does nothing on the " + backend.name() + " backend" + (have.isEmpty() ? "" : "; it is a flag of the "
                + String.join(" and ", have) + " backend" + (have.size() > 1 ? "s" : "") + " (--backend " + have.get(0) + ")");
    }

    /** @param world the job's ranks */
    public static void validate(Backend backend, RunSpec spec, int world) {
        if (spec.data().root() >= world) {
            throw NcclbenchException.usage("-r " + spec.data().root() + " is not a rank of this " + world + "-rank job");
        }
        boolean reduces = false;
        for (String name : spec.collectives()) {
            Collective c = spec.collective(name);
            reduces |= c.reduces();
        }
        if (reduces && !backend.supports(spec.data().type(), spec.data().op())) {
            List<String> can = new ArrayList<>();
            for (DataType t : DataType.values()) {
                if (backend.supports(t, spec.data().op())) {
                    can.add(t.label());
                }
            }
            throw NcclbenchException.usage("the " + backend.name() + " backend reduces " + String.join(", ", can)
                    + " with " + spec.data().op().label() + ", not " + spec.data().type().label() + "; use -d float"
                    + otherBackends(backend));
        }
        if (spec.range().maxBytes() > backend.maxBytes()) {
            throw NcclbenchException.usage("the " + backend.name() + " backend sweeps up to " + Sizes.human(backend.maxBytes())
                    + " per buffer; -e " + spec.range().maxBytes() + " is above that" + otherBackends(backend));
        }
        checkMemory(backend, spec, world);
    }

    /**
     * The largest size up to spec's -e that the backend can sweep: its per-buffer limit and, with memory, the
     * buffers of every local rank in its memory (what {@link #checkMemory} asks); a size of the sweep when one fits,
     * else the largest power of two below -b that does; 0 when nothing fits.
     */
    public static long largestFitting(Backend backend, RunSpec spec, int world, boolean memory) {
        // one budget for every size tried: the memory is the same, only the buffers grow
        return largestFitting(backend, spec, world, memory ? backend.memory(spec) : null, true);
    }

    /** @param belowMin whether a size below -b may answer: a lowered -e may take -b down with it, a hint may not */
    private static long largestFitting(Backend backend, RunSpec spec, int world, MemoryBudget budget, boolean belowMin) {
        if (fits(backend, spec, spec.range().maxBytes(), world, budget)) {
            return spec.range().maxBytes(); // -e itself need not be a size of the sweep (8 x 4^k never is 64M)
        }
        long fits = 0;
        for (long size : spec.sizes()) {
            if (fits(backend, spec, size, world, budget)) {
                fits = size;
            }
        }
        for (long size = Long.highestOneBit(Math.max(1, spec.range().minBytes())); belowMin && fits == 0 && size >= 1;
             size >>= 1) {
            if (fits(backend, spec, size, world, budget)) {
                fits = size;
            }
        }
        return fits;
    }

    /** @param budget where the buffers must fit, or null to judge the per-buffer limit alone */
    private static boolean fits(Backend backend, RunSpec spec, long size, int world, MemoryBudget budget) {
        if (size > backend.maxBytes()) {
            return false;
        }
        return budget == null || need(budget, spec, size, world) <= room(budget);
    }

    /**
     * The largest size must fit where the backend keeps its buffers: every local rank holds its buffers at once.
     * Refused with exit 2 and the -e that would fit, before anything runs.
     */
    static void checkMemory(Backend backend, RunSpec spec, int world) {
        MemoryBudget budget = backend.memory(spec);
        if (budget == null || need(budget, spec, spec.range().maxBytes(), world) <= room(budget)) {
            return;
        }
        // the hint names a size of this sweep: an -e below -b would be refused in turn
        long fits = largestFitting(backend, spec, world, budget, false);
        int sharing = sharing(budget, spec);
        throw NcclbenchException.usage("-e " + Sizes.human(spec.range().maxBytes()) + " needs "
                + Sizes.human(need(budget, spec, spec.range().maxBytes(), world)) + " of " + budget.where() + " (" + sharing
                + (sharing > 1 ? " local ranks x " : " local rank x ") + budget.buffersPerRank() + " buffers of "
                + Sizes.human(largestBuffer(spec, spec.range().maxBytes(), world))
                + (budget.perDevice() ? "); each GPU has " : "); this process has ") + Sizes.human(budget.availableBytes())
                + (fits > 0 ? ": -e " + Sizes.human(fits) + " fits" : "") + ", " + budget.remedy());
    }

    /** What the sweep holds at {@code size} where the backend keeps its buffers: the one rule of "does -e fit". */
    private static long need(MemoryBudget budget, RunSpec spec, long size, int world) {
        return largestBuffer(spec, size, world) * budget.buffersPerRank() * sharing(budget, spec);
    }

    /** Per device every rank has its own; in host memory every local rank of this process shares it. */
    private static int sharing(MemoryBudget budget, RunSpec spec) {
        return budget.perDevice() ? 1 : Math.max(1, spec.placement().localRanks());
    }

    /**
     * Per device the backend's figure already leaves its reserve; in host memory, headroom for the JVM's own use of
     * the same memory and a buffer replaced by a larger one.
     */
    private static long room(MemoryBudget budget) {
        return budget.perDevice() ? budget.availableBytes() : budget.availableBytes() / 10 * 9;
    }

    /** max(send, receive) bytes of one rank at {@code size}, over the sweep's collectives: a buffer as the checks count it. */
    public static long largestBuffer(RunSpec spec, long size, int world) {
        long most = 0;
        int elt = spec.data().type().bytes();
        for (String name : spec.collectives()) {
            Counts c = spec.collective(name).counts(size / elt, elt, world);
            most = Math.max(most, Math.max(c.sendCount(), c.recvCount()) * elt);
        }
        return most;
    }

    private static String otherBackends(Backend backend) {
        List<String> others = new ArrayList<>();
        Backends.all().stream().filter(b -> !b.name().equals(backend.name())).forEach(b -> others.add("--backend " + b.name()));
        return others.isEmpty() ? "" : ", or " + String.join(" or ", others);
    }
}
