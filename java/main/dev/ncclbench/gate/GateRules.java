package dev.ncclbench.gate;

import java.util.List;
import java.util.Set;

/**
 * What the gate accepts to compare (see {@link Admission}).
 *
 * @param allowChanged    fingerprint fields that may differ from the baseline's (--allow-changed)
 * @param requireAllSizes a size in one side only fails the gate (--require-all-sizes)
 * @param allowPartial    an interrupted or incomplete run is judged on the sizes it measured (--allow-partial)
 */
public record GateRules(Set<String> allowChanged, boolean requireAllSizes, boolean allowPartial) {
    public static final GateRules DEFAULT = new GateRules(Set.of(), false, false);

    public GateRules {
        allowChanged = Set.copyOf(allowChanged);
        Admission.checkAllowed(allowChanged);
    }

    /** From the flags: --allow-changed takes a comma-separated list and repeats. */
    public static GateRules of(List<String> allowChanged, boolean requireAllSizes, boolean allowPartial) {
        java.util.LinkedHashSet<String> s = new java.util.LinkedHashSet<>();
        for (String a : allowChanged == null ? List.<String>of() : allowChanged) {
            for (String part : a.split(",")) {
                if (!part.isBlank()) {
                    s.add(part.strip());
                }
            }
        }
        Admission.checkAllowed(s);
        return new GateRules(s, requireAllSizes, allowPartial);
    }
}
