package dev.ncclbench.sweep;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.spec.Defaults;
import dev.ncclbench.spec.RunSpec;
import dev.ncclbench.spec.Sizes;

import java.util.List;

/** One line when the sizes asked for do not each make a row of their own, and a refusal when none makes a row. */
final class SizeNotes {
    private SizeNotes() {
    }

    static void add(RunSpec spec, int world, List<String> notes) {
        int asked = spec.sizes().size();
        StringBuilder merged = new StringBuilder();
        for (String name : spec.collectives()) {
            Collective c = spec.collective(name);
            int rows = Passes.sizesOf(spec, c, world).size();
            if (rows == 0) {
                throw NcclbenchException.usage(noRow(spec, c, world));
            }
            if (rows < asked) {
                merged.append(merged.length() == 0 ? "" : ", ").append(name).append(" ").append(rows);
            }
        }
        if (merged.length() > 0) {
            notes.add(asked + " sizes asked, rows: " + merged + ": a size is rounded down to whole " + spec.data().type().label()
                    + " elements (whole per-rank blocks for collectives that split a buffer), and each resulting size is"
                    + " measured once");
        }
    }

    /**
     * Why no size makes a row of {@code c}, and the flag that fixes it: -e when it is below the smallest size that
     * makes one; else the step, which jumps from -b past -e (nccl-tests' additive -i 1M from -b 8 with -e 1M sweeps
     * 8 B alone, where a nccl-tests user means -f 2).
     */
    static String noRow(RunSpec spec, Collective c, int world) {
        long need = smallestRow(spec, c, world);
        String head = "no size from -b " + spec.range().minBytes() + " to -e " + spec.range().maxBytes() + " makes a row of " + c.name()
                + " " + spec.data().type().label() + " on " + world + " ranks (the smallest that does is " + need + " B)";
        if (need > spec.range().maxBytes()) {
            return head + "; raise -e to " + need + " or more";
        }
        List<Long> sizes = spec.sizes();
        String swept = sizes.size() == 1 ? Sizes.human(sizes.get(0)) + " alone"
                : sizes.size() + " sizes, " + Sizes.human(sizes.get(0)) + " to " + Sizes.human(sizes.get(sizes.size() - 1));
        if (spec.range().stepFactor() > 1) {
            return head + ": -f " + spec.range().stepFactor() + " steps past the sizes that would, so the sweep is " + swept
                    + "; pass a smaller -f, or -b " + need + " or more";
        }
        return head + ": -f 1 adds -i " + spec.range().stepBytes() + " at each step"
                + (spec.range().stepBytes() == Defaults.STEP_BYTES ? " (nccl-tests' default)" : "") + ", so the sweep is " + swept
                + "; pass -f 2 to double from -b as nccl-tests users do, or -b " + need + " or more";
    }

    /**
     * The smallest size in bytes that makes a row of {@code c}: where it splits a buffer, a rank's share rounded down
     * to 16 B as nccl-tests rounds it ({@link Collective#counts}) must not be 0.
     */
    private static long smallestRow(RunSpec spec, Collective c, int world) {
        int elt = spec.data().type().bytes();
        long high = 1;
        while (c.counts(high, elt, world).sizeBytes(spec.data().type()) == 0 && high < (1L << 40)) {
            high *= 2;
        }
        long low = high / 2; // makes no row (or is 0)
        while (high - low > 1) {
            long mid = (low + high) >>> 1;
            if (c.counts(mid, elt, world).sizeBytes(spec.data().type()) > 0) {
                high = mid;
            } else {
                low = mid;
            }
        }
        return high * elt;
    }
}
