package dev.ncclbench.sweep;

import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendChoice;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.backend.NcclTestsChecks;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.launch.LaunchInfo;
import dev.ncclbench.spec.Defaults;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.Sizes;

import java.util.List;

/** The spec as the chosen backend runs it: its local ranks, its interface, its default -e; each change noted. */
final class SpecForBackend {
    private SpecForBackend() {
    }

    static RunSpec resolve(RunSpec asked, Backend backend, LaunchInfo launch, List<String> notes) {
        RunSpec spec = asked.toBuilder().backend(backend.name()).build();
        int localRanks = localRanks(spec, backend, launch);
        spec = spec.toBuilder().localRanks(localRanks).build();
        RunSpec bound = BackendChoice.specFor(backend, spec, launch.singleNode());
        if (bound != spec) {
            notes.add(backend.name() + " backend on loopback: every rank is on this node (set NCCL_SOCKET_IFNAME to measure a NIC)");
            spec = bound;
        }
        if (backend.capabilities().contains(Capability.LOCAL_RANKS) && "default".equals(spec.maxBytesSource())) {
            // send, receive and scratch buffers per local rank must fit the JVM's memory with room to spare
            long budget = Runtime.getRuntime().maxMemory() / 2 / (3L * localRanks);
            long cap = Long.highestOneBit(Math.max(1 << 20, Math.min(Defaults.SOCKET_DEFAULT_MAX_BYTES, budget)));
            String why = "-e defaults to " + Sizes.human(cap) + " on the " + backend.name() + " backend (the smaller of "
                    + Sizes.human(Defaults.SOCKET_DEFAULT_MAX_BYTES) + " and what " + localRanks + " local ranks x 3 buffers leave of "
                    + Sizes.human(Runtime.getRuntime().maxMemory()) + " of JVM memory); pass -e to change it";
            if (spec.minBytes() > cap) {
                // never below -b: the sweep the user asked for starts there (and the memory check judges it)
                cap = spec.minBytes();
                why = "-e defaults to -b (" + Sizes.human(cap) + ") on the " + backend.name() + " backend; pass -e to change it";
            }
            notes.add(why);
            spec = spec.toBuilder().range(spec.range().upTo(cap, why)).build();
        }
        spec = capToDevice(spec, backend, notes);
        spec = reduceGiven(spec, backend, world(spec, backend, launch), launch.size() == 1, notes);
        notes.addAll(backend.notes(spec));
        spec = withSkipped(spec, backend, notes);
        if (!backend.capabilities().contains(Capability.DEVICE_TIMING)) {
            notes.add(CodeWarmup.note());
        }
        return spec;
    }

    /**
     * A default -e larger than each GPU's room is lowered to it, as nccl-tests lowers maxBytes ("Reducing maxBytes to
     * N due to memory limitation"), with one note; an -e the user gave is judged by the memory check instead (exit 2).
     */
    static RunSpec capToDevice(RunSpec spec, Backend backend, List<String> notes) {
        if (!"default".equals(spec.maxBytesSource())) {
            return spec;
        }
        dev.ncclbench.backend.MemoryBudget budget = backend.memory(spec);
        if (budget == null || !budget.perDevice() || spec.maxBytes() <= budget.largestBuffer()) {
            return spec;
        }
        long cap = Math.max(spec.minBytes(), budget.largestBuffer());
        String why = "-e reduced from " + Sizes.human(spec.maxBytes()) + " to " + Sizes.human(cap) + " due to memory limitation: "
                + budget.buffersPerRank() + " buffers in " + budget.where() + "; pass -e to change it";
        notes.add(why);
        return spec.toBuilder().range(spec.range().upTo(cap, why)).build();
    }

    /**
     * A given -e that the backend cannot sweep is lowered as nccl-tests lowers it, with its line ("Reducing maxBytes
     * to N due to memory limitation", common.cu), so that a nccl-tests command line (-e 8G, 16G) runs unchanged. The
     * backend's per-buffer limit is the same in every process; memory is judged here only when this process is the
     * whole job (each host's memory differs, and a lowered -e must be the same on every rank: a job of several
     * processes is refused by the rank that cannot fit, as before).
     */
    static RunSpec reduceGiven(RunSpec spec, Backend backend, int world, boolean wholeJob, List<String> notes) {
        if ("default".equals(spec.maxBytesSource())) {
            return spec;
        }
        long fits = dev.ncclbench.backend.BackendChecks.largestFitting(backend, spec, world, wholeJob);
        if (fits == 0 || fits >= spec.maxBytes()) {
            return spec;
        }
        boolean limit = spec.maxBytes() > backend.maxBytes();
        String why = "Reducing maxBytes to " + fits + " due to memory limitation (-e " + Sizes.human(spec.maxBytes())
                + (limit && fits == Long.highestOneBit(backend.maxBytes()) ? ": the " + backend.name() + " backend sweeps up to "
                + Sizes.human(backend.maxBytes()) + " per buffer" : ": the buffers of " + spec.localRanks()
                + " local rank(s) must fit this process's memory") + ")";
        notes.add(why);
        return spec.toBuilder().range(spec.range().upTo(fits, why)).build();
    }

    /**
     * -d all, -o all, -o mulsum: the pairs this backend cannot run are skipped and named in the header; the spec's one
     * type and op (read by the checks before the sweep) become the first pair it runs.
     */
    private static RunSpec withSkipped(RunSpec spec, Backend backend, List<String> notes) {
        List<String> skipped = NcclTestsChecks.skipped(backend, spec);
        if (skipped.isEmpty()) {
            return spec;
        }
        String note = NcclTestsChecks.skipNote(backend, spec, skipped);
        notes.add(note);
        RunSpec out = spec.toBuilder().ncclTests(spec.ncclTests().withSkipped(skipped)).build();
        for (DataType t : out.types()) {
            for (String o : out.ops()) {
                ReduceOp op = ReduceOp.parse(o);
                if (!skipped.contains(t.label()) && op != null && !skipped.contains(t.label() + " " + o)) {
                    return out.toBuilder().type(t).op(op).build();
                }
            }
        }
        // nothing reduces (e.g. -o mulsum alone): the reducing collectives make no rows
        return out.toBuilder().type(DataType.FLOAT).op(ReduceOp.SUM).build();
    }

    /** Control-plane members of this process: one per -t thread, else --ranks, else the launcher's one. */
    static int localRanks(RunSpec spec, Backend backend, LaunchInfo launch) {
        if (backend.capabilities().contains(Capability.THREADS)) {
            // each thread drives -g GPUs in group calls
            return spec.threads();
        }
        if (spec.localRanks() > 0) {
            return spec.localRanks();
        }
        return launch.launcher().equals("none") ? Defaults.LOCAL_RANKS_STANDALONE : 1;
    }

    /** Ranks of the whole job. */
    static int world(RunSpec spec, Backend backend, LaunchInfo launch) {
        int perMember = backend.capabilities().contains(Capability.GPUS_PER_THREAD) ? spec.gpusPerThread() : 1;
        return launch.size() * spec.localRanks() * perMember;
    }
}
