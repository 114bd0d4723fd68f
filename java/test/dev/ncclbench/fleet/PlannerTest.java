package dev.ncclbench.fleet;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.util.HashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlannerTest {

    @Property(tries = 60)
    void theRoundRobinMeetsEveryPairOnceInDisjointRounds(@ForAll @IntRange(min = 2, max = 40) int n) {
        List<Integer> alive = IntStream.range(0, n).boxed().toList();
        Planner p = new Planner(new SearchOptions(Survey.ROUND_ROBIN, 2, 100, 0.5, OptionalDouble.empty(), 1));
        Set<Long> met = new HashSet<>();
        for (int round = 1; round <= p.surveyRounds(n); round++) {
            Set<Integer> used = new HashSet<>();
            for (Group g : Planner.circle(round, alive)) {
                assertTrue(used.add(g.members().get(0)) && used.add(g.members().get(1)));
                assertTrue(met.add(SimulatedFabric.key(g.members().get(0), g.members().get(1))), "met twice: " + g);
            }
        }
        assertEquals(n * (n - 1) / 2, met.size());
    }

    @Property(tries = 60)
    void randomPairsCoverEveryNodeButTheOddOne(@ForAll @IntRange(min = 2, max = 64) int n, @ForAll long seed) {
        RoundPlan first = new Planner(SearchOptions.defaults(Survey.PAIRS, seed)).first(IntStream.range(0, n).boxed().toList());
        Set<Integer> used = new HashSet<>();
        first.groups().forEach(g -> g.members().forEach(m -> assertTrue(used.add(m))));
        assertEquals(n - n % 2, used.size());
        assertTrue(first.groups().stream().allMatch(g -> first.load(g) == 1));
    }

    @Property(tries = 30)
    void theSameEvidenceAndSeedPlanTheSameRound(@ForAll @IntRange(min = 4, max = 20) int n, @ForAll long seed) {
        SimulatedFabric f = new SimulatedFabric(n, 0.2, seed).slowNode(0, 0.25);
        SearchOptions o = SearchOptions.defaults(Survey.PAIRS, seed);
        SearchResult a = f.search(o);
        SearchResult b = new SimulatedFabric(n, 0.2, seed).slowNode(0, 0.25).search(o);
        assertEquals(a.plans(), b.plans());
    }
}
