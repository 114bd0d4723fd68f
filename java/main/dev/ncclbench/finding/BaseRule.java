package dev.ncclbench.finding;

/**
 * A rule whose metadata is given once, in its constructor, so a rule is its constructor line plus
 * {@link Rule#check}.
 *
 * @param <E> the evidence the rule judges
 */
public abstract class BaseRule<E> implements Rule<E> {
    private final RuleInfo info;

    /** A rule whose ERROR findings do not by themselves mean the path is degraded. */
    protected BaseRule(String id, Severity severity, String summary) {
        this(id, severity, summary, false);
    }

    protected BaseRule(String id, Severity severity, String summary, boolean degradesPath) {
        this.info = new RuleInfo(id, severity, summary, degradesPath);
    }

    public final RuleInfo info() {
        return info;
    }

    @Override
    public final String id() {
        return info.id();
    }

    @Override
    public final Severity severity() {
        return info.severity();
    }

    @Override
    public final String summary() {
        return info.summary();
    }

    @Override
    public final boolean degradesPath() {
        return info.degradesPath();
    }
}
