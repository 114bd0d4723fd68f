package dev.ncclbench.spec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sizes are parsed and stepped as nccl-tests' parsesize() and its sweep loop do. */
class SizesTest {

    @ParameterizedTest
    @CsvSource({
            "8, 8",
            "0, 0",
            "1K, 1024",
            "1k, 1024",
            "64K, 65536",
            "1M, 1048576",
            "64m, 67108864",
            "1G, 1073741824",
            "8G, 8589934592",
            "1.5G, 1610612736",
            "0.5K, 512",
            ".5M, 524288",
            "2., 2",
            // truncated to whole bytes, as nccl-tests' (size_t)(double * units) does
            "0.3K, 307",
            "1.7, 1",
            "100.9K, 103321",
            "1.0000001M, 1048576",
            "' 64M ', 67108864",
            // only the first letter counts in nccl-tests (%1s): 1KB is 1K
            "1KB, 1024",
            "32MB, 33554432",
    })
    void parsesBinarySuffixesAndFractions(String text, long expected) {
        assertEquals(expected, Sizes.parse(text), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"8Q", "abc", "", "  ", "K", "-5", "-1M", "1.2.3", "1e3", "0x10", "M8", "1,5G", "1 2"})
    void rejectsBadSizesNamingThem(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse(text));
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
        if (!text.isBlank()) {
            assertTrue(e.getMessage().contains(text.trim()), e.getMessage());
        }
    }

    @Test
    void rejectsNull() {
        assertThrows(IllegalArgumentException.class, () -> Sizes.parse(null));
    }

    @Test
    void rejectsAbsurdlyLargeSizes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse("99999999999G"));
        assertTrue(e.getMessage().contains("99999999999G"), e.getMessage());
    }

    /** nccl-tests: for (size = min; size <= max; size = stepFactor > 1 ? size * stepFactor : size + stepBytes). */
    private static List<Long> ncclTestsLoop(long min, long max, long factor, long step) {
        List<Long> out = new ArrayList<>();
        for (long size = min; size <= max; size = factor > 1 ? size * factor : size + step) {
            out.add(size);
        }
        return out;
    }

    @ParameterizedTest
    @CsvSource({
            "8, 67108864, 2, 1048576",
            "1048576, 16777216, 2, 1048576",
            "8, 1048576, 8, 1048576",
            "3, 100, 3, 1",
            "1048576, 4194304, 1, 1048576",
            "1048576, 4194304, 0, 1048576",
            "1000, 1000, 2, 1048576",
            "1000, 1000, 1, 1048576",
            "7, 100, 1, 10",
            "8, 8589934592, 2, 1048576",
            "100, 99, 2, 1",
    })
    void stepsLikeNcclTests(long min, long max, long factor, long step) {
        assertEquals(ncclTestsLoop(min, max, factor, step), Sizes.steps(min, max, factor, step));
    }

    @Test
    void knownSweeps() {
        // -b 8 -e 64M -f 2: 2^3 .. 2^26
        List<Long> s = Sizes.steps(8, 64L << 20, 2, 1 << 20);
        assertEquals(24, s.size());
        assertEquals(8L, s.get(0));
        assertEquals(64L << 20, s.get(23));
        // -b 1M -e 16M -f 2
        assertEquals(List.of(1L << 20, 2L << 20, 4L << 20, 8L << 20, 16L << 20), Sizes.steps(1 << 20, 16 << 20, 2, 1 << 20));
        // -b 1M -e 4M -i 1M (no -f): additive
        assertEquals(List.of(1L << 20, 2L << 20, 3L << 20, 4L << 20), Sizes.steps(1 << 20, 4 << 20, 1, 1 << 20));
        // the factor wins over the step when > 1
        assertEquals(List.of(1L << 20, 4L << 20, 16L << 20), Sizes.steps(1 << 20, 16 << 20, 4, 1));
        // max not on the grid: stops below it
        assertEquals(List.of(8L, 16L, 32L, 64L), Sizes.steps(8, 100, 2, 1));
    }

    @Test
    void aSweepThatCannotAdvanceStopsInsteadOfLoopingForever() {
        // nccl-tests loops for ever here; we take the first size once
        assertEquals(List.of(64L), Sizes.steps(64, 128, 1, 0));
        assertEquals(List.of(0L), Sizes.steps(0, 128, 2, 0));
    }

    @Test
    void humanSizes() {
        assertEquals("8 B", Sizes.human(8));
        assertEquals("64 KiB", Sizes.human(64 << 10));
        assertEquals("1.5 GiB", Sizes.human(3L << 29));
    }
}
