package dev.ncclbench.fleet;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.util.HashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the search promises, over random fabrics: finds what is there, accuses nothing else, stays in budget. */
class SearchPropertiesTest {

    /**
     * Ranks come from picks of any size mapped onto the ranks still free, not from ranges filtered by Assume: with
     * n up to 48 and three ranks in 0-47, most tries were rejected, and jqwik gave up on the property (69 of 80
     * rejected in one CI run) whenever the seed drew small n.
     */
    private static final int PICK = 1 << 20;

    /** Distinct ranks of n, the k-th the (pick % (n - k))-th of the ranks not yet taken: every choice equally likely. */
    private static int[] distinct(int n, int... picks) {
        int[] out = new int[picks.length];
        boolean[] taken = new boolean[n];
        for (int k = 0; k < picks.length; k++) {
            int left = picks[k] % (n - k);
            for (int r = 0; r < n; r++) {
                if (taken[r]) {
                    continue;
                }
                if (left-- == 0) {
                    out[k] = r;
                    taken[r] = true;
                    break;
                }
            }
        }
        return out;
    }

    private static SearchOptions opts(Survey s, long seed) {
        return new SearchOptions(s, 2, 4, SearchOptions.DEFAULT_MARGIN, OptionalDouble.empty(), seed);
    }

    @Property(tries = 80)
    void everyPairAtOnceNamesExactlyTheSlowNodeAndTheBadLinkInFourRounds(
            @ForAll @IntRange(min = 6, max = 16) int n, @ForAll @IntRange(min = 0, max = PICK) int a,
            @ForAll @IntRange(min = 0, max = PICK) int b, @ForAll @IntRange(min = 0, max = PICK) int c, @ForAll long seed) {
        int[] three = distinct(n, a, b, c);
        int slow = three[0];
        int x = three[1];
        int y = three[2];
        SimulatedFabric f = new SimulatedFabric(n, 0.3, seed).slowNode(slow, 0.25).badLink(x, y, 0.1);
        SearchResult r = f.search(opts(Survey.ALL, seed));
        assertEquals(List.of(slow), r.verdicts().badNodes().stream().map(NodeVerdict::rank).toList(), r.verdicts().toString());
        assertEquals(Set.of(Math.min(x, y), Math.max(x, y)), linkSet(r), r.verdicts().toString());
        assertTrue(r.rounds() <= 4, "rounds " + r.rounds());
        assertTrue(r.verdicts().undecided().isEmpty(), r.verdicts().undecided().toString());
        for (NodeVerdict v : r.verdicts().nodes()) {
            assertTrue(v.status() != NodeVerdict.Status.GOOD || r.evidence().finePairs(v.rank()) >= 2,
                    "good on one result: " + v);
        }
    }

    /**
     * From 5 nodes: with 4, a slow node paired with the one node outside the bad link leaves no healthy pair in the
     * round (0-3 slow, 1-2 the bad link), and the search, which judges pairs against the best one, has nothing to
     * measure them by; it calls both fine (a fresh-clone CI run drew that case). Its own limit, not the property's.
     */
    @Property(tries = 80)
    void randomPairsFindTheSlowNodeAndAccuseNoOtherNode(@ForAll @IntRange(min = 5, max = 48) int n,
                                                        @ForAll @IntRange(min = 0, max = PICK) int a,
                                                        @ForAll @IntRange(min = 0, max = PICK) int b,
                                                        @ForAll @IntRange(min = 0, max = PICK) int c, @ForAll long seed) {
        int[] three = distinct(n, a, b, c);
        int slow = three[0];
        int x = three[1];
        int y = three[2];
        SimulatedFabric f = new SimulatedFabric(n, 0.3, seed).slowNode(slow, 0.25).badLink(x, y, 0.1);
        SearchResult r = f.search(opts(Survey.PAIRS, seed));
        if (n % 2 == 0) {
            assertEquals(List.of(slow), r.verdicts().badNodes().stream().map(NodeVerdict::rank).toList(), r.verdicts().toString());
        } else {
            assertTrue(r.verdicts().badNodes().stream().allMatch(v -> v.rank() == slow), r.verdicts().toString());
        }
        Set<Integer> named = linkSet(r);
        assertTrue(named.isEmpty() || named.equals(Set.of(Math.min(x, y), Math.max(x, y))), r.verdicts().toString());
        assertTrue(r.rounds() <= 4);
        for (RoundPlan p : f.seen) {
            assertDisjoint(p);
        }
    }

    @Property(tries = 80)
    void nothingShapedAccusesNothing(@ForAll @IntRange(min = 2, max = 32) int n, @ForAll long seed,
                                     @ForAll boolean all) {
        SimulatedFabric f = new SimulatedFabric(n, 0.45, seed);
        SearchResult r = f.search(opts(all && n <= 16 ? Survey.ALL : Survey.PAIRS, seed));
        assertTrue(!r.verdicts().anyBad(), r.verdicts().toString());
        // every pair at once gives each node n-1 results: settled by pass one (two nodes: one pair, retested). Random
        // pairs give one result each, which clears nobody alone: a second round confirms (a third for the odd one out)
        int expected = all && n <= 16 ? (n == 2 ? 2 : 1) : 2 + n % 2;
        assertEquals(expected, r.rounds(), "a clean fabric is settled by pass one and its confirmation");
        assertTrue(r.verdicts().undecided().isEmpty(), r.verdicts().undecided().toString());
    }

    @Property(tries = 50)
    void aNodeKilledMidSearchIsUnreachableAndTheRestGetVerdicts(@ForAll @IntRange(min = 5, max = 12) int n,
                                                                @ForAll @IntRange(min = 0, max = PICK) int a,
                                                                @ForAll @IntRange(min = 0, max = PICK) int b,
                                                                @ForAll long seed) {
        int[] two = distinct(n, a, b);
        int slow = two[0];
        int killed = two[1];
        SimulatedFabric f = new SimulatedFabric(n, 0.3, seed).slowNode(slow, 0.25);
        f.diesInRound.put(killed, 2);
        SearchResult r = f.search(new SearchOptions(Survey.ALL, 2, 6, 0.5, OptionalDouble.empty(), seed));
        assertEquals(NodeVerdict.Status.UNREACHABLE, r.verdicts().node(killed).status());
        assertEquals(NodeVerdict.Status.SLOW, r.verdicts().node(slow).status(), r.verdicts().toString());
        for (NodeVerdict v : r.verdicts().nodes()) {
            if (v.rank() != killed && v.rank() != slow) {
                assertEquals(NodeVerdict.Status.GOOD, v.status(), r.verdicts().toString());
            }
        }
        assertTrue(r.verdicts().badLinks().isEmpty());
    }

    @Property(tries = 50)
    void aNodeSlowOnlyInLargerGroupsIsFoundByBisection(@ForAll @IntRange(min = 8, max = 24) int n,
                                                       @ForAll @IntRange(min = 0, max = PICK) int a, @ForAll long seed) {
        int culprit = distinct(n, a)[0];
        SimulatedFabric f = new SimulatedFabric(n, 0.3, seed);
        f.slowInGroupsOnly.add(culprit);
        SearchResult r = f.search(new SearchOptions(Survey.PAIRS, 4, 8, 0.5, OptionalDouble.empty(), seed));
        boolean tested = r.evidence().measurements().stream().anyMatch(m -> m.group().size() == 4 && m.group().contains(culprit));
        if (tested) {
            assertEquals(List.of(culprit), r.verdicts().badNodes().stream().map(NodeVerdict::rank).toList(), r.verdicts().toString());
            assertTrue(r.verdicts().node(culprit).reason().contains("groups of 4"));
        } else {
            assertTrue(r.verdicts().badNodes().isEmpty());
        }
    }

    static Set<Integer> linkSet(SearchResult r) {
        Set<Integer> s = new HashSet<>();
        r.verdicts().badLinks().forEach(l -> {
            s.add(l.a());
            s.add(l.b());
        });
        assertTrue(r.verdicts().badLinks().size() <= 1, r.verdicts().badLinks().toString());
        return s;
    }

    static void assertDisjoint(RoundPlan p) {
        if (p.round() == 1) {
            return;
        }
        Set<Integer> used = new HashSet<>();
        for (Group g : p.groups()) {
            for (int m : g.members()) {
                assertTrue(used.add(m), "rank " + m + " twice in round " + p.round());
            }
        }
    }
}
