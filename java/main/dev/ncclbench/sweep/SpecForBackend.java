package dev.ncclbench.sweep;

import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendChoice;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.backend.NcclTestsChecks;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.env.Host;
import dev.ncclbench.launch.LaunchInfo;
import dev.ncclbench.spec.Defaults;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.SweepProfile;

import java.util.List;

/** The spec as the chosen backend runs it: its local ranks, its interface, its -e ({@link MaxBytes}); each change noted. */
final class SpecForBackend {
    private SpecForBackend() {
    }

    static RunSpec resolve(RunSpec asked, Backend backend, LaunchInfo launch, SweepProfile profile, Host host,
                           List<String> notes) {
        RunSpec spec = asked.withPlacement(new RunSpec.Placement(backend.name(), localRanks(asked, backend, launch)));
        RunSpec bound = BackendChoice.specFor(backend, spec, launch.singleNode());
        if (bound != spec) {
            notes.add(backend.name() + " backend on loopback: every rank is on this node (set NCCL_SOCKET_IFNAME to measure a NIC)");
            spec = bound;
        }
        spec = MaxBytes.resolve(spec, backend, profile, world(spec, backend, launch), launch.size() == 1, notes);
        notes.addAll(backend.notes(spec, host));
        spec = withSkipped(spec, backend, notes);
        if (!backend.capabilities().contains(Capability.COMPILED_DATA_PATH)) {
            notes.add(CodeWarmup.note());
        }
        return spec;
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
        RunSpec out = spec.withNcclTests(spec.ncclTests().withSkipped(skipped));
        for (DataType t : out.types()) {
            for (String o : out.ops()) {
                ReduceOp op = ReduceOp.parse(o);
                if (!skipped.contains(t.label()) && op != null && !skipped.contains(t.label() + " " + o)) {
                    return out.withData(out.data().with(t, op));
                }
            }
        }
        // nothing reduces (e.g. -o mulsum alone): the reducing collectives make no rows
        return out.withData(out.data().with(DataType.FLOAT, ReduceOp.SUM));
    }

    /** Control-plane members of this process: one per -t thread, else --ranks, else the launcher's one. */
    static int localRanks(RunSpec spec, Backend backend, LaunchInfo launch) {
        if (backend.capabilities().contains(Capability.THREADS)) {
            // each thread drives -g GPUs in group calls
            return spec.devices().threads();
        }
        if (spec.placement().localRanks() > 0) {
            return spec.placement().localRanks();
        }
        return launch.launcher().equals("none") ? Defaults.LOCAL_RANKS_STANDALONE : 1;
    }

    /** Ranks of the whole job. */
    static int world(RunSpec spec, Backend backend, LaunchInfo launch) {
        int perMember = backend.capabilities().contains(Capability.GPUS_PER_THREAD) ? spec.devices().gpusPerThread() : 1;
        return launch.size() * spec.placement().localRanks() * perMember;
    }
}
