package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * A collector that could not read its evidence: what it wanted, why it failed, and what would let it read it (null:
 * nothing known beyond the detail; snapshots saved before 2026-12-05 have none). Never a silent pass.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Problem(String collector, String what, String detail, String remedy) {
}
