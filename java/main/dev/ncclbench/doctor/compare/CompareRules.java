package dev.ncclbench.doctor.compare;

import dev.ncclbench.finding.RuleBook;

import java.util.List;

/** The cross-node rules of `doctor --compare`. */
public final class CompareRules {
    private static final RuleBook<Fleet> BOOK = new RuleBook<>("doctor --compare",
            List.of(new VersionsDiffer(), new InterfacesDiffer(), new NcclEnvDiffers()));

    private CompareRules() {
    }

    public static RuleBook<Fleet> book() {
        return BOOK;
    }
}
