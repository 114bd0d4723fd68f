package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.spec.MaxBytesSource;
import dev.ncclbench.spec.RunSpec;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * sweep and preflight read the sweep's flags through one {@link SweepOptions}: the same flag means the same thing in
 * both, preflight's --sweep-arg is parsed by it, and each command's defaults come from its profile, with -e's source
 * saying whether the user typed it.
 */
class SweepOptionsTest {
    private static RunSpec preflight(String... args) {
        PreflightCommand c = OnHost.parsed("preflight", Map.of(), args);
        return c.request().sweep();
    }

    @Test
    void preflightsDefaultsAreItsProfilesAndItsEndIsNotCalledGiven() {
        RunSpec s = preflight();
        assertTrue(s.range().max().isEmpty(), "not given: the sweep gives the default of the backend it runs");
        assertEquals(MaxBytesSource.DEFAULT, s.range().maxBytesSource());
        assertEquals(4, s.range().stepFactor());
        assertEquals(5, s.iterations().warmupIters());
        assertEquals(MaxBytesSource.FLAG, preflight("-e", "1M").range().maxBytesSource());
    }

    @Test
    void aSweepFlagWorksDirectlyOrThroughSweepArgAlike() {
        RunSpec direct = preflight("-d", "double", "-n", "5");
        RunSpec passed = preflight("--sweep-arg=-d", "--sweep-arg=double", "--sweep-arg=-n", "--sweep-arg=5");
        assertEquals(DataType.DOUBLE, direct.data().type());
        assertEquals(direct.data().type(), passed.data().type());
        assertEquals(5, passed.iterations().iters());
    }

    @Test
    void aFlagGivenBothWaysIsRefusedAndPreflightsOwnOutputsAreNotSweepArgs() {
        NcclbenchException twice = assertThrows(NcclbenchException.class,
                () -> preflight("-n", "5", "--sweep-arg=-n", "--sweep-arg=7"));
        assertEquals(2, twice.exitCode().code);
        assertTrue(twice.getMessage().contains("--iters is given to preflight already"), twice.getMessage());
        NcclbenchException json = assertThrows(NcclbenchException.class, () -> preflight("--sweep-arg=--json=x.json"));
        assertTrue(json.getMessage().startsWith("--sweep-arg: Unknown option: '--json"), json.getMessage());
    }

    @Test
    void theSweepsOwnDefaultsAreTheWholeRange() {
        SweepCommand c = OnHost.parsed("sweep", Map.of());
        RunSpec s = c.resolve();
        assertTrue(s.range().max().isEmpty(), "8G on GPUs, 128M in host memory: resolved once the backend is known");
        assertEquals(2, s.range().stepFactor());
        assertEquals(1, s.iterations().warmupIters());
        assertEquals(MaxBytesSource.DEFAULT, s.range().maxBytesSource());
    }
}
