package dev.ncclbench.finding;

import java.util.List;

/**
 * One conclusion of one rule.
 *
 * @param ruleId    stable id, e.g. NET-SOCKET-FALLBACK: the user's handle for --ignore and for tickets
 * @param severity  how much it matters
 * @param title     one line: what is wrong
 * @param detail    why we think so, in a cluster engineer's words
 * @param evidence  "file:line: what it says" for every line the conclusion rests on
 * @param remedy    commands or settings to run or change, in the order to try them
 * @param reference where the remedy is explained (runbook section, NCCL documentation)
 */
public record Finding(String ruleId, Severity severity, String title, String detail, List<String> evidence,
                      List<String> remedy, String reference) {
    public Finding {
        evidence = List.copyOf(evidence);
        remedy = List.copyOf(remedy);
    }
}
