package dev.ncclbench.netif;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NCCL's parseStringList and matchIfList (src/misc/utils.cc), as NCCL_IB_HCA and NCCL_SOCKET_IFNAME use them. */
class NcclNameListTest {
    @Test
    void prefixesByDefaultSoMlx51AlsoKeepsMlx510() {
        NcclNameList l = NcclNameList.parse("mlx5_1");
        assertTrue(l.keeps("mlx5_1", 1));
        assertTrue(l.keeps("mlx5_10", 1));
        assertTrue(l.keeps("mlx5_11", 2));
        assertFalse(l.keeps("mlx5_2", 1));
    }

    @Test
    void equalsMakesNamesExactAndCaretExcludes() {
        assertFalse(NcclNameList.parse("=mlx5_1").keeps("mlx5_10", 1));
        assertTrue(NcclNameList.parse("=mlx5_1").keeps("mlx5_1", 1));
        assertFalse(NcclNameList.parse("^mlx5_1").keeps("mlx5_10", 1));
        assertTrue(NcclNameList.parse("^=mlx5_1").keeps("mlx5_10", 1));
        assertFalse(NcclNameList.parse("^=mlx5_1").keeps("mlx5_1", 1));
    }

    @Test
    void aPortPicksOnePortAndIsReadAsAtoi() {
        NcclNameList l = NcclNameList.parse("mlx5_0:1,mlx5_2");
        assertTrue(l.keeps("mlx5_0", 1));
        assertFalse(l.keeps("mlx5_0", 2));
        assertTrue(l.keeps("mlx5_2", 2));
        assertTrue(l.keeps("mlx5_0", NcclNameList.ANY_PORT), "an interface has no port: any entry's port matches");
        assertFalse(NcclNameList.parse("mlx5_0:x").keeps("mlx5_0", 1), "atoi(\"x\") is port 0, which no device has");
        assertEquals(1, NcclNameList.parse("mlx5_0:1:3:0").entries().get(0).port(), "rail and plane fields are skipped");
    }

    @Test
    void emptyEntriesAreSkippedAndAnEmptyListKeepsEverything() {
        assertEquals(2, NcclNameList.parse("a,,b,:1").entries().size());
        assertTrue(NcclNameList.parse("").keeps("anything", 1));
        assertTrue(NcclNameList.parse(null).keeps("anything", 1));
        assertFalse(NcclNameList.parse("^").keeps("anything", 1), "an excluding list of nothing excludes everything");
    }
}
