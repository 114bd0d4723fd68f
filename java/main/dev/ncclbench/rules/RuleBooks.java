package dev.ncclbench.rules;

import dev.ncclbench.diagnosis.rules.ExplainRules;
import dev.ncclbench.doctor.compare.CompareRules;
import dev.ncclbench.doctor.rules.DoctorRules;
import dev.ncclbench.env.EnvRules;
import dev.ncclbench.finding.RuleBook;
import dev.ncclbench.gate.curve.CurveRules;

import java.util.List;

/**
 * Every rule book, in the order `ncclbench rules` lists them. Each book is reached one way, its class's
 * {@code book()}; this is the one list of them. A command that judges evidence with a new book adds it here.
 */
public final class RuleBooks {
    private static final List<RuleBook<?>> ALL = List.of(ExplainRules.book(), DoctorRules.book(),
            CompareRules.book(), CurveRules.book(), EnvRules.book());

    private RuleBooks() {
    }

    public static List<RuleBook<?>> all() {
        return ALL;
    }

    /** Whether some book has a rule with this id (rule ids are unique across the books). */
    public static boolean knows(String id) {
        return ALL.stream().anyMatch(b -> b.knows(id));
    }
}
