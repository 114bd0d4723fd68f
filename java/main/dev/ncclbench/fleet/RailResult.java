package dev.ncclbench.fleet;

import java.util.List;

/**
 * The rail round's answer.
 *
 * @param rails        each rank's rails as it reported them (empty where it gave none or never joined)
 * @param plans        the rail rounds as planned
 * @param measurements every rail group's result
 * @param verdicts     one per rail of every node that reported rails, by rank then rail
 * @param judgement    how the rails were judged, one sentence
 */
public record RailResult(List<List<NodeRail>> rails, List<RoundPlan> plans, List<RailMeasurement> measurements,
                         List<RailVerdict> verdicts, String judgement) {
    public RailResult {
        rails = List.copyOf(rails);
        plans = List.copyOf(plans);
        measurements = List.copyOf(measurements);
        verdicts = List.copyOf(verdicts);
    }

    public List<RailVerdict> bad() {
        return verdicts.stream().filter(RailVerdict::bad).toList();
    }

    /** The most rails any node reported: the heat map's width. */
    public int width() {
        return rails.stream().mapToInt(List::size).max().orElse(0);
    }

    /** The verdict on rail {@code rail} of {@code rank}, or null where the node has no such rail. */
    public RailVerdict of(int rank, int rail) {
        return verdicts.stream().filter(v -> v.rank() == rank && v.rail() == rail).findFirst().orElse(null);
    }
}
