package dev.ncclbench.finding;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An ordered registry of rules over one kind of evidence. Running it never aborts: a rule that throws becomes
 * a {@value #CRASHED} finding and the others still run (Flutter doctor's lesson).
 *
 * @param <E> the evidence its rules judge
 */
public final class RuleBook<E> {
    public static final String CRASHED = "RULE-CRASHED";

    private final String name;
    private final List<Rule<E>> rules;

    /** @param name what the rules judge, for `ncclbench rules` ("explain", "doctor") */
    public RuleBook(String name, List<? extends Rule<E>> rules) {
        this.name = name;
        this.rules = List.copyOf(rules);
        Map<String, Rule<E>> seen = new LinkedHashMap<>();
        for (Rule<E> r : this.rules) {
            if (seen.put(r.id(), r) != null) {
                throw new IllegalArgumentException("two rules share the id " + r.id());
            }
        }
    }

    public String name() {
        return name;
    }

    public List<Rule<E>> rules() {
        return rules;
    }

    /** The same book with one more rule at the end (tests use it to prove a crash becomes a finding). */
    public RuleBook<E> with(Rule<E> extra) {
        List<Rule<E>> all = new ArrayList<>(rules);
        all.add(extra);
        return new RuleBook<>(name, all);
    }

    /** Every rule's findings, worst first, without the ignored ids (and without their crashes). */
    public List<Finding> run(E evidence, Set<String> ignored) {
        List<Finding> findings = new ArrayList<>();
        for (Rule<E> r : rules) {
            if (ignored.contains(r.id())) {
                continue;
            }
            try {
                findings.addAll(r.check(evidence));
            } catch (RuntimeException ex) {
                if (!ignored.contains(CRASHED)) {
                    findings.add(new Finding(CRASHED, Severity.WARNING, "rule " + r.id() + " failed: " + ex,
                            "The other rules ran; this one could not judge the evidence, so its question stays open.",
                            List.of(), List.of("report it with the evidence attached"), References.NCCLBENCH));
                }
            }
        }
        findings.sort(Comparator.comparing(Finding::severity).reversed());
        return List.copyOf(findings);
    }

    /** Whether any ERROR finding comes from a rule that degrades the path. */
    public boolean degrades(List<Finding> findings) {
        return findings.stream().anyMatch(f -> f.severity() == Severity.ERROR
                && rules.stream().anyMatch(r -> r.id().equals(f.ruleId()) && r.degradesPath()));
    }

    /** Whether the book has a rule with this id (or it is the crash id every book can report). */
    public boolean knows(String id) {
        return CRASHED.equals(id) || rules.stream().anyMatch(r -> r.id().equals(id));
    }
}
