package dev.ncclbench.collective;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CUDA kernels cannot run here; their formulas must mirror DataPattern textually, and DataPattern's
 * properties are what makes the device check bit-exact.
 */
class DataPatternKernelMirrorTest {
    private static final Path CUH = Path.of(System.getProperty("ncclbench.basedir", "."), "native", "kernels", "pattern.cuh");

    @Test
    void kernelUsesTheSameConstants() throws Exception {
        String cuh = Files.readString(CUH);
        for (String c : new String[] {"0x9E3779B97F4A7C15", "0xC2B2AE3D27D4EB4F", "0xBF58476D1CE4E5B9", "0x94D049BB133111EB",
                "(z >> 30)", "(z >> 27)", "(z >> 31)", "1 + (int64_t)(h & 1)", "1 + (int64_t)(h & 7)", "(uint64_t)rank + 1ULL"}) {
            assertTrue(cuh.contains(c), "pattern.cuh lacks " + c);
        }
    }

    @Test
    void ncclTestsKnownValue() {
        // splitmix64's finaliser of 0 is 0; of 1 a fixed value: guards a change of the mix on one side only.
        assertEquals(0L, DataPattern.mix(0));
        assertEquals(0x5692161D100B05E5L, DataPattern.mix(1));
    }

    @Test
    void sumsStayExactInEveryFloatTypeUpTo64Ranks() {
        for (int n : new int[] {1, 2, 8, 64}) {
            for (long i = 0; i < 4096; i++) {
                long s = DataPattern.reduced(i, ReduceOp.SUM, n, DataType.FLOAT);
                assertTrue(s >= n && s <= 8L * n);
                // exact in half (11-bit significand) for sums up to 2048 and in bfloat16 up to 256
                assertEquals(s, (long) (float) s);
                if (s <= 256) {
                    assertEquals(s, (long) Float.intBitsToFloat(Float.floatToIntBits((float) s) & 0xFFFF0000));
                }
            }
        }
    }

    @Test
    void everyElementOfTheSweepSizesVerifies() {
        Collective ar = Collectives.parseList("all_reduce").get(0);
        for (long size = 8; size <= (1 << 16); size *= 2) {
            long count = size / 4;
            Counts c = ar.counts(count, 4, 4);
            for (int rank = 0; rank < 4; rank++) {
                for (long j = 0; j < c.recvCount(); j++) {
                    double want = DataPattern.expected(ar, rank, j, c, 4, 0, ReduceOp.SUM, DataType.FLOAT);
                    double sum = 0;
                    for (int r = 3; r >= 0; r--) {
                        sum += (float) DataPattern.input(r, j, ReduceOp.SUM);
                    }
                    assertTrue(DataPattern.matches((float) sum, want, ReduceOp.SUM, DataType.FLOAT));
                }
            }
        }
    }
}
