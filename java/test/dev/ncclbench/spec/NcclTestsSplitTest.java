package dev.ncclbench.spec;

import dev.ncclbench.NcclbenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NCCL_TESTS_SPLIT as nccl-tests v2.19.6 reads it (common.cu run() and parseInt; README's examples). */
class NcclTestsSplitTest {

    private static List<Integer> colors(String value, int procs) {
        NcclTestsSplit split = NcclTestsSplit.parse(NcclTestsSplit.SPLIT, value);
        List<Integer> out = new java.util.ArrayList<>();
        for (int p = 0; p < procs; p++) {
            out.add(split.colorOf(p));
        }
        return out;
    }

    /** README: "AND 0x7" = "MOD 8" (one GPU per node), "OR 0x7" and "DIV 8" (one group per node), "AND 0x1" = "MOD 2". */
    @Test
    void readmeExamplesPairUp() {
        assertEquals(colors("AND 0x7", 16), colors("MOD 8", 16));
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7), colors("MOD 8", 16));
        assertEquals(List.of(7, 7, 7, 7, 7, 7, 7, 7, 15, 15, 15, 15, 15, 15, 15, 15), colors("OR 0x7", 16));
        assertEquals(List.of(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1), colors("DIV 8", 16));
        assertEquals(colors("AND 0x1", 6), colors("MOD 2", 6));
    }

    /** The words in any case, or their symbols; decimal, 0x hex, 0b binary, a leading 0 octal (strtoul base 0). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
            "AND 0x1;0,1,0,1", "and 1;0,1,0,1", "&1;0,1,0,1", "& 0b01;0,1,0,1", "AND 0B1;0,1,0,1",
            "OR 2;2,3,2,3", "|0x2;2,3,2,3", "MOD 2;0,1,0,1", "%2;0,1,0,1", "mod 0b10;0,1,0,1",
            "DIV 2;0,0,1,1", "/2;0,0,1,1", "Div 0x2;0,0,1,1", "DIV 02;0,0,1,1", "DIV 010;0,0,0,0",
            "MOD 2 trailing words;0,1,0,1", "AND   3;0,1,2,3", "AND -1;0,1,2,3"})
    void readsAsNcclTestsDoes(String value, String expected) {
        List<Integer> want = java.util.Arrays.stream(expected.split(",")).map(Integer::valueOf).toList();
        assertEquals(want, colors(value, 4), value);
    }

    /** NCCL_TESTS_SPLIT_MASK is hex without a prefix (strtoul base 16), and wins over NCCL_TESTS_SPLIT. */
    @Test
    void maskIsHexAndWins() {
        NcclTestsSplit mask = NcclTestsSplit.of("10", "MOD 2");
        assertEquals(NcclTestsSplit.MASK, mask.variable());
        assertEquals(16, mask.colorOf(16 + 3));
        assertEquals(0, mask.colorOf(15));
        assertEquals(1, NcclTestsSplit.parse(NcclTestsSplit.MASK, "0x1").colorOf(3));
        assertNull(NcclTestsSplit.of(null, null));
        assertEquals("NCCL_TESTS_SPLIT=MOD 2", NcclTestsSplit.fromAssignment("NCCL_TESTS_SPLIT=MOD 2").assignment());
    }

    /** Groups as MPI_Comm_split makes them: by colour, numbered in world order. */
    @Test
    void groupsNumberTheirMembersInWorldOrder() {
        NcclTestsSplit.Groups g = NcclTestsSplit.parse(NcclTestsSplit.SPLIT, "MOD 2").groups(6);
        assertEquals(2, g.count());
        assertEquals(List.of(1, 3, 5), g.membersOf(3));
        assertEquals(1, g.rankIn(3));
        assertEquals(3, g.size(4));
        assertEquals(0, g.color(4));
    }

    /** nccl-tests would make one group of every rank, or divide by zero: here one line and exit 2. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {"XOR 1", "MOD", "MOD   ", "AND x", "MOD 0", "/0x0", "2"})
    void malformedValuesAreRefusedInOneLine(String value) {
        NcclbenchException e = assertThrows(NcclbenchException.class, () -> NcclTestsSplit.parse(NcclTestsSplit.SPLIT, value));
        assertEquals(2, e.exitCode().code);
        assertTrue(e.getMessage().startsWith("NCCL_TESTS_SPLIT=" + value + " "), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }

    /** Groups of different sizes (DIV 3 on 4 ranks) would sweep different sizes and roots: refused, the groups named. */
    @Test
    void unevenGroupsAreRefused() {
        NcclbenchException e = assertThrows(NcclbenchException.class,
                () -> NcclTestsSplit.parse(NcclTestsSplit.SPLIT, "DIV 3").groups(4));
        assertEquals(2, e.exitCode().code);
        assertTrue(e.getMessage().contains("group 0: 3 ranks, group 1: 1 rank"), e.getMessage());
        NcclbenchException negative = assertThrows(NcclbenchException.class,
                () -> NcclTestsSplit.parse(NcclTestsSplit.SPLIT, "OR -2").groups(2));
        assertTrue(negative.getMessage().contains("must not be negative"), negative.getMessage());
    }
}
