package dev.ncclbench.fleet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/** The loop: plan a round, run it, judge, until nothing is left to decide or the round limit. */
public final class Search {
    private Search() {
    }

    /**
     * @param hosts    one name per rank, for the verdicts' words
     * @param lostAtStart ranks already gone before round one (none under a normal start)
     * @param onRound  told after each round (for progress lines)
     */
    public static SearchResult run(List<String> hosts, SearchOptions options, RoundRunner runner,
                                   Map<Integer, String> lostAtStart, Consumer<RoundReport> onRound) {
        return run(hosts, options, runner, lostAtStart, onRound, null);
    }

    /** @param baseline recorded pair rates to judge against (null: relative, and --fabric's floor) */
    public static SearchResult run(List<String> hosts, SearchOptions options, RoundRunner runner,
                                   Map<Integer, String> lostAtStart, Consumer<RoundReport> onRound, FleetBaseline baseline) {
        int n = hosts.size();
        Planner planner = new Planner(options);
        List<Integer> all = IntStream.range(0, n).boxed().toList();
        List<GroupMeasurement> measurements = new ArrayList<>();
        Map<Integer, String> lost = new LinkedHashMap<>(lostAtStart);
        List<RoundPlan> plans = new ArrayList<>();
        Evidence evidence = new Evidence(n, options, baseline == null ? null : new BaselineJudge(baseline, hosts))
                .fold(measurements, lost.keySet());
        Verdicts verdicts = Judge.judge(evidence, hosts, lost);
        List<Integer> alive = all.stream().filter(r -> !lost.containsKey(r)).toList();
        RoundPlan plan = alive.size() >= 2 ? planner.first(alive) : null;
        String stop = alive.size() < 2 ? "fewer than two nodes left" : "nothing left to decide";
        while (plan != null) {
            plans.add(plan);
            RoundRunner.Outcome out = runner.run(plan);
            out.lost().forEach(lost::putIfAbsent);
            Set<Integer> gone = new TreeSet<>(lost.keySet());
            Map<Integer, Integer> loads = plan.loads();
            int before = measurements.size();
            for (int i = 0; i < plan.groups().size(); i++) {
                Group g = plan.groups().get(i);
                int load = g.members().stream().mapToInt(loads::get).max().orElse(1);
                String err = out.errors().get(i);
                measurements.add(err == null ? GroupMeasurement.ok(plan.round(), g, load, out.busbw().get(i), out.samplesOf(i))
                        : GroupMeasurement.failed(plan.round(), g, load, err));
            }
            evidence.fold(measurements.subList(before, measurements.size()), gone);
            verdicts = Judge.judge(evidence, hosts, lost);
            onRound.accept(new RoundReport(plan, measurements.subList(measurements.size() - plan.groups().size(),
                    measurements.size()), evidence, Map.copyOf(out.lost())));
            int next = plan.round() + 1;
            RoundPlan candidate = planner.next(next, evidence, verdicts, alive);
            if (candidate != null && next > options.maxRounds()) {
                stop = "round limit (" + options.maxRounds() + ")";
                candidate = null;
            } else if (candidate == null && all.stream().filter(evidence::reachable).count() < 2) {
                stop = "fewer than two nodes left";
            }
            plan = candidate;
        }
        return new SearchResult(verdicts, evidence, plans, stop);
    }

    /** One finished round, for progress lines. */
    public record RoundReport(RoundPlan plan, List<GroupMeasurement> results, Evidence evidence, Map<Integer, String> lost) {
    }
}
