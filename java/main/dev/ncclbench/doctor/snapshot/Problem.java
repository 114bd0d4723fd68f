package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** A collector that could not read its evidence: what it wanted and why it failed. Never a silent pass. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Problem(String collector, String what, String detail) {
}
