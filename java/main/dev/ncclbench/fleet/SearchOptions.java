package dev.ncclbench.fleet;

import java.util.OptionalDouble;

/**
 * How the search plans and judges.
 *
 * @param survey     pass one
 * @param groupSize  2: pairs only; larger: after the pairs, groups of this size and a bisection of slow ones
 * @param maxRounds  the search stops after this many rounds and says what it could not decide
 * @param margin     a result is slow below this fraction of the reference (the best results of this run)
 * @param floorGBps  an absolute floor for pairs that ran alone (the fabric catalog's healthy minimum), if known
 * @param seed       for the random pairing; the same seed plans the same rounds from the same results
 */
public record SearchOptions(Survey survey, int groupSize, int maxRounds, double margin, OptionalDouble floorGBps, long seed) {
    public static final double DEFAULT_MARGIN = 0.5;
    public static final int DEFAULT_MAX_ROUNDS = 6;

    public SearchOptions {
        if (groupSize < 2) {
            throw new IllegalArgumentException("group size " + groupSize);
        }
        if (!(margin > 0 && margin < 1)) {
            throw new IllegalArgumentException("margin " + margin);
        }
        if (maxRounds < 1) {
            throw new IllegalArgumentException("max rounds " + maxRounds);
        }
    }

    public static SearchOptions defaults(Survey survey, long seed) {
        return new SearchOptions(survey, 2, DEFAULT_MAX_ROUNDS, DEFAULT_MARGIN, OptionalDouble.empty(), seed);
    }
}
