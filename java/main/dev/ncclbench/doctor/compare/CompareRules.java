package dev.ncclbench.doctor.compare;

import dev.ncclbench.finding.RuleBook;

import java.util.List;

/** The cross-node rules of `doctor --compare`. */
public final class CompareRules {
    private static final RuleBook<HostSet> BOOK = new RuleBook<>("doctor --compare",
            List.of(new VersionsDiffer(), new InterfacesDiffer(), new NcclEnvDiffers(), new RailsDiffer()));

    private CompareRules() {
    }

    public static RuleBook<HostSet> book() {
        return BOOK;
    }
}
