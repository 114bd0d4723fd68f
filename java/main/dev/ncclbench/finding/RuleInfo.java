package dev.ncclbench.finding;

/**
 * What `ncclbench rules` lists about a rule, as data: a rule's metadata is these four values, its behaviour is its
 * {@link Rule#check}.
 *
 * @param id           the user's handle for --ignore and for tickets, e.g. NET-SOCKET-FALLBACK
 * @param severity     the worst severity the rule can report
 * @param summary      one line: what the rule looks for
 * @param degradesPath whether an ERROR finding of the rule means the path is degraded (not merely worth a look)
 */
public record RuleInfo(String id, Severity severity, String summary, boolean degradesPath) {
}
