package dev.ncclbench.backend.nccl;

import dev.ncclbench.backend.MemoryBudget;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** nccl-tests v2.19.6's maxBytes cap (common.cu): (total - min(1 GiB per 16 GiB, 4 GiB) - 1 GiB) / (check ? 3 : 2). */
class DeviceMemoryTest {
    private static final long GIB = 1L << 30;

    @Test
    void anH200KeepsFourGibAndOneForTheRest() {
        long h200 = 150_754_820_096L; // totalGlobalMem of an H200 (140.4 GiB): reserve min(9 GiB, 4 GiB)
        assertEquals((h200 - 4 * GIB - GIB) / 3, DeviceMemory.capBytes(h200, true));
        assertEquals((h200 - 4 * GIB - GIB) / 2, DeviceMemory.capBytes(h200, false));
        assertTrue(DeviceMemory.capBytes(h200, true) > 8 * GIB, "the default -e 8G fits an H200");
    }

    @Test
    void aSixteenGibGpuKeepsOneGibPerSixteenRoundedUp() {
        assertEquals((16 * GIB - GIB - GIB) / 3, DeviceMemory.capBytes(16 * GIB, true));
        assertEquals((16 * GIB + 1 - 2 * GIB - GIB) / 2, DeviceMemory.capBytes(16 * GIB + 1, false), "DIVUP");
        assertTrue(DeviceMemory.capBytes(16 * GIB, true) < 8 * GIB, "the default -e 8G must be lowered there");
    }

    @Test
    void theBudgetIsPerGpuAndItsLargestBufferIsTheCap() {
        MemoryBudget b = DeviceMemory.budget(24 * GIB, true);
        assertTrue(b.perDevice());
        assertEquals(3, b.buffersPerRank());
        assertEquals(DeviceMemory.capBytes(24 * GIB, true), b.largestBuffer());
    }

    @Test
    void aGpuSmallerThanTheReserveHasNoRoom() {
        assertEquals(0, DeviceMemory.capBytes(GIB, true));
    }
}
