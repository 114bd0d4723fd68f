package dev.ncclbench.diagnosis;

import dev.ncclbench.diagnosis.facts.RouteKind;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sweep's own diagnosis of a one-GPU run on a machine without InfiniBand (NCCL 2.28 prints "NET/IB : No device
 * found." and "Failed to initialize NET plugin IB" for every communicator): loopback and healthy, never exit 6.
 */
class OneGpuRunLogTest {

    @Test
    void oneRankWithoutInfinibandIsLoopbackAndHealthy() {
        Path log = FixtureTest.fixtures().resolve("era-2.24-2.29/one-gpu-no-ib-2.28.log");
        RunLogDiagnosis d = RunLogDiagnosis.of(List.of(log), List.of(), 1, OptionalDouble.empty(), Optional.empty());
        assertTrue(d.diagnosis().isPresent(), "the log was read");
        assertEquals(Health.HEALTHY, d.diagnosis().get().health(), d.diagnosis().get().reason());
        assertEquals(RouteKind.LOOPBACK, d.diagnosis().get().path());
        assertTrue(d.diagnosis().get().findings().stream().noneMatch(f -> f.ruleId().startsWith("NET-SOCKET")),
                "no socket finding for a one-rank run: " + d.diagnosis().get().findings());
    }
}
