package dev.ncclbench.fleet;

import dev.ncclbench.baseline.SizeSamples;

import java.util.List;
import java.util.Map;

/** Runs one round on the real nodes: the I/O side of the search. */
public interface RoundRunner {

    /**
     * Runs every group of the plan at once and waits at most the round's limit.
     *
     * @return per group in plan order, busbw or why it failed; and the ranks lost during the round, with why
     */
    Outcome run(RoundPlan plan);

    /**
     * @param busbw   GB/s per group in plan order (NaN where it failed); errors in plan order (null where it ran)
     * @param samples per group in plan order, the per-iteration times behind busbw (null where none)
     */
    record Outcome(List<Double> busbw, List<String> errors, Map<Integer, String> lost, List<List<SizeSamples>> samples) {
        public Outcome(List<Double> busbw, List<String> errors, Map<Integer, String> lost) {
            this(busbw, errors, lost, null);
        }

        List<SizeSamples> samplesOf(int group) {
            return samples == null ? null : samples.get(group);
        }
    }
}
