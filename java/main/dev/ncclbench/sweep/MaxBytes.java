package dev.ncclbench.sweep;

import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.BackendChecks;
import dev.ncclbench.backend.MemoryBudget;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.spec.MaxBytesSource;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.Sizes;
import dev.ncclbench.spec.SweepProfile;

import java.util.List;

/**
 * -e once the backend is known, in one place: a default (empty until here, {@link RunSpec.SizeRange#max}) becomes the command's default for where the backend keeps
 * its buffers ({@link SweepProfile#maxBytes}) and is lowered to what fits there; a given -e is lowered as nccl-tests
 * lowers it ("Reducing maxBytes to N due to memory limitation", common.cu), so that a nccl-tests command line
 * (-e 8G, 16G) runs unchanged. "Fits" is {@link BackendChecks#largestFitting}, the rule the memory check refuses
 * by: a lowered -e always passes it. Each change is one header note, and the spec's source says which happened.
 */
final class MaxBytes {
    private MaxBytes() {
    }

    /**
     * @param world   the job's ranks
     * @param wholeJob this process is the whole job: a given -e is judged against this host's memory only then (each
     *                host's memory differs, and -e must be the same on every rank; a job of several processes is
     *                refused by the rank that cannot fit). The per-buffer limit is the same everywhere.
     */
    static RunSpec resolve(RunSpec spec, Backend backend, SweepProfile profile, int world, boolean wholeJob,
                           List<String> notes) {
        return spec.range().maxBytesSource().given() ? reduceGiven(spec, backend, world, wholeJob, notes)
                : fitDefault(spec, backend, profile, world, notes);
    }

    /**
     * The default: the profile's for this backend's memory (nccl-tests' 32M where -b was given alone), then the
     * largest that fits (never below -b). The one place a default -e gets its value.
     */
    static RunSpec fitDefault(RunSpec spec, Backend backend, SweepProfile profile, int world, List<String> notes) {
        boolean device = backend.capabilities().contains(Capability.DEVICE_MEMORY);
        long min = spec.range().minBytes();
        long asked = Math.max(min, spec.range().max().orElse(profile.maxBytes(true))); // what a GPU backend would take
        long cap = Math.max(min, spec.range().max().orElse(profile.maxBytes(device)));
        RunSpec capped = spec.withRange(spec.range().upTo(cap, spec.range().maxBytesSource()));
        long fits = BackendChecks.largestFitting(backend, capped, world, true);
        if (fits == 0 || fits >= cap) {
            if (cap != asked) {
                notes.add("-e defaults to " + Sizes.human(cap) + " on the " + backend.name() + " backend (its buffers are in"
                        + " host memory; " + Sizes.human(asked) + " is the default with GPUs); pass -e to change it");
            }
            // nothing fits (fits == 0): the memory check refuses it with the -e that would
            return capped;
        }
        long lowered = Math.max(min, fits);
        MemoryBudget budget = backend.memory(capped);
        notes.add("-e defaults to " + Sizes.human(lowered) + " on the " + backend.name() + " backend, lowered from "
                + Sizes.human(cap) + " due to memory limitation"
                + (budget == null ? "" : ": " + budget.buffersPerRank() + " buffers" + (budget.perDevice() ? " per GPU in "
                : " per local rank (" + Math.max(1, spec.placement().localRanks()) + ") in ") + budget.where() + " of "
                + Sizes.human(budget.availableBytes())) + "; pass -e to change it");
        return spec.withRange(spec.range().upTo(lowered, MaxBytesSource.FITTED));
    }

    /** A given -e that the backend cannot sweep is lowered as nccl-tests lowers it, with its line. */
    static RunSpec reduceGiven(RunSpec spec, Backend backend, int world, boolean wholeJob, List<String> notes) {
        long fits = BackendChecks.largestFitting(backend, spec, world, wholeJob);
        if (fits == 0 || fits >= spec.range().maxBytes()) {
            return spec;
        }
        boolean limit = spec.range().maxBytes() > backend.maxBytes();
        String why = "Reducing maxBytes to " + fits + " due to memory limitation (-e " + Sizes.human(spec.range().maxBytes())
                + (limit && fits == Long.highestOneBit(backend.maxBytes()) ? ": the " + backend.name() + " backend sweeps up to "
                + Sizes.human(backend.maxBytes()) + " per buffer" : ": the buffers of " + spec.placement().localRanks()
                + " local rank(s) must fit this process's memory") + ")";
        notes.add(why);
        return spec.withRange(spec.range().upTo(fits, MaxBytesSource.REDUCED));
    }
}
