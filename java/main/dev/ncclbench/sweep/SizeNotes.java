package dev.ncclbench.sweep;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.spec.RunSpec;

import java.util.List;

/** One line when the sizes asked for do not each make a row of their own, and a refusal when none makes a row. */
final class SizeNotes {
    private SizeNotes() {
    }

    static void add(RunSpec spec, int world, List<String> notes) {
        int asked = spec.sizes().size();
        StringBuilder merged = new StringBuilder();
        for (String name : spec.collectives()) {
            Collective c = Collectives.byName(name);
            int rows = Passes.sizesOf(spec, c, world).size();
            if (rows == 0) {
                throw NcclbenchException.usage("no size from -b " + spec.minBytes() + " to -e " + spec.maxBytes() + " holds a whole "
                        + spec.type().label() + " (" + spec.type().bytes() + " B) per rank for " + name + " on " + world
                        + " ranks; raise -e");
            }
            if (rows < asked) {
                merged.append(merged.length() == 0 ? "" : ", ").append(name).append(" ").append(rows);
            }
        }
        if (merged.length() > 0) {
            notes.add(asked + " sizes asked, rows: " + merged + ": a size is rounded down to whole " + spec.type().label()
                    + " elements (whole per-rank blocks for collectives that split a buffer), and each resulting size is"
                    + " measured once");
        }
    }
}
