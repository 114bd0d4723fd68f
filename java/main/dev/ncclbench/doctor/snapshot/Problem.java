package dev.ncclbench.doctor.snapshot;

/** A collector that could not read its evidence: what it wanted and why it failed. Never a silent pass. */
public record Problem(String collector, String what, String detail) {
}
