package dev.ncclbench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hang sentence names every rank of a small job, and stays one line at 8192 ranks. */
class HangReportTest {

    @Test
    void aFewRanksAreNamedAsBefore() {
        assertEquals("no rank", HangReport.ranks(List.of()));
        assertEquals("rank 2", HangReport.ranks(List.of(2)));
        assertEquals("ranks 1 and 3", HangReport.ranks(List.of(3, 1)));
        assertEquals("ranks 0, 1 and 3", HangReport.ranks(List.of(0, 1, 3)));
        assertEquals("rank 2 did not reach 'all_reduce 2 MiB' within 3 s",
                HangReport.didNotReach(List.of(2), "all_reduce 2 MiB", 3000));
    }

    @Test
    void ranksInARowAreARange() {
        assertEquals("ranks 0-2", HangReport.ranks(List.of(2, 0, 1)));
        assertEquals("ranks 0 and 8-1023", HangReport.ranks(range(0, 0, 8, 1023)));
        // a node's 8 ranks each on 1024 nodes with two nodes hung: every rank is still named
        assertEquals("ranks 5600-5607 and 8000-8007", HangReport.ranks(range(5600, 5607, 8000, 8007)));
    }

    @Test
    void pastEightItemsTheRestAreCounted() {
        List<Integer> hung = new ArrayList<>();
        for (int r = 0; r < 8192; r += 2) {
            hung.add(r);
        }
        String s = HangReport.didNotReach(hung, "#3 all_reduce 8 B out-of-place", 300_000);
        assertEquals("4,096 ranks (0, 2, 4, 6, 8, 10, 12, 14 and 4,088 more) did not reach '#3 all_reduce 8 B"
                + " out-of-place' within 300 s", s);
        // ranges count for the ranks they hold
        assertEquals("1,014 ranks (1, 3, 5, 7, 9, 11, 13, 15 and 1,006 more)",
                HangReport.ranks(IntStream.range(1, 1024).filter(r -> r > 18 || r % 2 == 1).boxed().toList()));
        assertEquals("20 ranks (0-2, 4, 6, 8, 10, 12, 14, 16 and 10 more)",
                HangReport.ranks(IntStream.of(0, 1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36)
                        .boxed().toList()));
        // every rank of an 8192-rank job hung: one range
        assertEquals("ranks 0-8191", HangReport.ranks(range(0, 8191, 0, -1)));
        assertTrue(s.length() < 120, s);
    }

    /** from a to b and from c to d, inclusive (an empty second range when d < c). */
    private static List<Integer> range(int a, int b, int c, int d) {
        List<Integer> out = new ArrayList<>();
        IntStream.rangeClosed(a, b).forEach(out::add);
        IntStream.rangeClosed(c, d).forEach(out::add);
        return out;
    }

    @Test
    void aHangNamesItsHostsAsTheirProcessesSaid() {
        // 8 ranks a node: rank r on node r / 8
        java.util.function.IntFunction<String> node = r -> "node" + r / 8;
        assertEquals(" on node0", HangReport.onHosts(List.of(6), node));
        assertEquals(" on 2 hosts: node1 (8 ranks), node9 (1)",
                HangReport.onHosts(IntStream.concat(IntStream.rangeClosed(8, 15), IntStream.of(73)).boxed().toList(), node));
        assertEquals(" on 2 hosts: node0 (1 rank), node1 (1)", HangReport.onHosts(List.of(0, 8), node));
        assertEquals(" on 12 hosts: node0 (8 ranks), node1 (8), node2 (8), node3 (8), node4 (8), node5 (8), node6 (8),"
                + " node7 (8) and 4 more", HangReport.onHosts(IntStream.range(0, 96).boxed().toList(), node));
        // 16 connected ranks said their host; 984 never reached the store
        java.util.function.IntFunction<String> few = r -> r < 16 ? "gpu-a" : null;
        assertEquals(" on gpu-a; 984 never reached the store", HangReport.onHosts(IntStream.range(0, 1000).boxed().toList(), few));
        assertEquals("", HangReport.onHosts(List.of(3, 4), r -> null), "no host known: nothing to add");
    }
}
