package dev.ncclbench.diagnosis;

import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What the path verdict compares measured busbw with, besides NCCL's own log.
 *
 * @param fabric      the fabric the job should be using (--fabric), from the catalog
 * @param socketFloor what the socket backend reached on the same interface (--socket-floor), GB/s
 * @param description one line for the header, e.g. "fabric ib-hdr; socket floor 1.10 GB/s from run.json"
 */
public record RouteInputs(Optional<FabricEntry> fabric, OptionalDouble socketFloor, String description) {
    public static RouteInputs none() {
        return new RouteInputs(Optional.empty(), OptionalDouble.empty(), null);
    }
}
