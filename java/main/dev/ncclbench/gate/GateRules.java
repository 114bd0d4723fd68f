package dev.ncclbench.gate;

import java.util.List;
import java.util.Set;

/**
 * What the gate accepts to compare (see {@link Admission}).
 *
 * @param allowChanged    fingerprint fields that may differ from the baseline's (--allow-changed)
 * @param requireAllSizes a size in one side only fails the gate (--require-all-sizes)
 * @param allowPartial    an interrupted or incomplete run is judged on the sizes it measured (--allow-partial)
 * @param curveOnly       no baseline is looked for: the curve check alone decides (--curve-only); without it a run
 *                        that no baseline matches is the verdict NO_BASELINE, never a pass
 */
public record GateRules(Set<String> allowChanged, boolean requireAllSizes, boolean allowPartial, boolean curveOnly) {
    public static final GateRules DEFAULT = new GateRules(Set.of(), false, false, false);

    public GateRules {
        allowChanged = Set.copyOf(allowChanged);
        Admission.checkAllowed(allowChanged);
    }

    /** From the flags: --allow-changed takes a comma-separated list and repeats. */
    public static GateRules of(List<String> allowChanged, boolean requireAllSizes, boolean allowPartial,
                               boolean curveOnly) {
        java.util.LinkedHashSet<String> s = new java.util.LinkedHashSet<>();
        for (String a : allowChanged == null ? List.<String>of() : allowChanged) {
            for (String part : a.split(",")) {
                if (!part.isBlank()) {
                    s.add(part.strip());
                }
            }
        }
        Admission.checkAllowed(s);
        return new GateRules(s, requireAllSizes, allowPartial, curveOnly);
    }

    /** The same rules, judging an unfinished run on its measured sizes. */
    GateRules allowingPartial() {
        return new GateRules(allowChanged, requireAllSizes, true, curveOnly);
    }
}
