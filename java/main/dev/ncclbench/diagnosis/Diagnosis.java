package dev.ncclbench.diagnosis;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import dev.ncclbench.finding.Severity;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.diagnosis.facts.NicLoad;
import dev.ncclbench.diagnosis.facts.PairVerdict;
import dev.ncclbench.diagnosis.facts.RouteKind;
import java.util.List;

/**
 * What a log says about the path, judged.
 *
 * @param path       the overall path: for multi-node jobs the inter-node one (the bottleneck)
 * @param health     healthy for its topology, degraded, failed, or not enough evidence
 * @param confidence "certain" (connection lines), "likely" (indirect lines), "unknown"
 * @param reason     one sentence: what path and why
 * @param hosts      how many hosts logged
 * @param ranks      how many ranks (largest nranks seen), 0 when unknown
 * @param pairs      the verdict per pair of ranks
 * @param nics       per host, what each NIC NCCL listed carried (channels, peers) and its verdict against its siblings
 * @param findings   every rule's conclusions, errors first
 * @param evidence   the lines the overall verdict rests on
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Diagnosis(RouteKind path, Health health, String confidence, String reason, int hosts, int ranks,
                        List<PairVerdict> pairs, List<NicLoad> nics, List<Finding> findings, List<String> evidence) {

    /** Findings at or above a severity. */
    public List<Finding> findings(Severity atLeast) {
        return findings.stream().filter(f -> f.severity().compareTo(atLeast) >= 0).toList();
    }
}
