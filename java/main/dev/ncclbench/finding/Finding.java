package dev.ncclbench.finding;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;

/**
 * One conclusion of one rule. Its JSON form is this record, the same in every document (explain, doctor, gate,
 * preflight, env): {@code id}, {@code severity} in lower case, title, detail, evidence, remedy,
 * {@code degrades_path}, reference.
 *
 * @param ruleId       stable id, e.g. NET-SOCKET-FALLBACK: the user's handle for --ignore and for tickets
 * @param severity     how much it matters
 * @param title        one line: what is wrong
 * @param detail       why we think so, in a cluster engineer's words
 * @param evidence     "file:line: what it says" for every line the conclusion rests on
 * @param remedy       commands or settings to run or change, in the order to try them
 * @param reference    where the remedy is explained (runbook section, NCCL documentation)
 * @param degradesPath an ERROR of a rule that degrades the path: the bytes take a slower route than they could
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"id", "severity", "title", "detail", "evidence", "remedy", "degrades_path", "reference"})
public record Finding(@JsonProperty("id") @JsonAlias("ruleId") String ruleId, Severity severity, String title,
                      String detail, List<String> evidence, List<String> remedy, String reference,
                      boolean degradesPath) {
    public Finding {
        evidence = List.copyOf(evidence);
        remedy = List.copyOf(remedy);
        degradesPath = degradesPath && severity == Severity.ERROR;
    }

    /** A finding that does not degrade the path. */
    public Finding(String ruleId, Severity severity, String title, String detail, List<String> evidence,
                   List<String> remedy, String reference) {
        this(ruleId, severity, title, detail, evidence, remedy, reference, false);
    }
}
