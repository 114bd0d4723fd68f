package dev.ncclbench.fleet;

import java.util.List;

/**
 * The search's answer.
 *
 * @param plans      the rounds as planned, in order
 * @param stopReason why it stopped: "nothing left to decide", "round limit (N)", "fewer than two nodes left"
 */
public record SearchResult(Verdicts verdicts, Evidence evidence, List<RoundPlan> plans, String stopReason) {
    public int rounds() {
        return plans.size();
    }
}
