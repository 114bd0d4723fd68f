package dev.ncclbench.gate;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GateOptionsTest {
    @Test
    void perSizeTolerancesOverrideTheDefaultLastMatchWins() {
        GateOptions o = new GateOptions(0.05, GateOptions.overrides(List.of("8-64K=25", "64K=30", "1M=7.5%")),
                1 << 20, 0.01);
        assertEquals(0.25, o.toleranceAt(8), 1e-12);
        assertEquals(0.30, o.toleranceAt(64 << 10), 1e-12);
        assertEquals(0.05, o.toleranceAt(128 << 10), 1e-12);
        assertEquals(0.075, o.toleranceAt(1 << 20), 1e-12);
        assertTrue(o.latencyJudged((1 << 20) - 1));
        assertTrue(!o.latencyJudged(1 << 20));
    }

    @Test
    void badSpecsAreUsageErrors() {
        for (String bad : List.of("64K", "=5", "8Q=5", "64K-8=5", "8=x", "8=-1")) {
            NcclbenchException e = assertThrows(NcclbenchException.class, () -> GateOptions.overrides(List.of(bad)), bad);
            assertEquals(ExitCode.USAGE, e.exitCode());
            assertTrue(e.getMessage().contains("--tolerance-at"), e.getMessage());
        }
    }
}
