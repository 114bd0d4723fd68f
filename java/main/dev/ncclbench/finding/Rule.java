package dev.ncclbench.finding;

import java.util.List;

/**
 * One check: a pure function from collected evidence (a log's facts, a host snapshot) to findings. A rule
 * extends {@link BaseRule}, which holds its metadata, and writes only {@link #check}; {@link RuleBook} runs the
 * rules in order and turns a crash into a finding.
 *
 * @param <E> the evidence the rule judges
 */
public interface Rule<E> {

    /** Stable id, the user's handle for --ignore and for tickets, e.g. NET-SOCKET-FALLBACK. */
    String id();

    /** The worst severity this rule can report: what `ncclbench rules` lists. */
    Severity severity();

    /** One line for `ncclbench rules`: what the rule looks for. */
    String summary();

    /** Whether an ERROR finding of this rule means the path is degraded (not merely worth a look). */
    default boolean degradesPath() {
        return false;
    }

    /** The findings; empty when the rule has nothing to say. May throw: the book turns that into a finding. */
    List<Finding> check(E evidence);

    /** A finding of this rule, with its id. */
    default Finding finding(Severity severity, String title, String detail, List<String> evidence,
                            List<String> remedy, String reference) {
        return new Finding(id(), severity, title, detail, evidence, remedy, reference, degradesPath());
    }
}
