package dev.ncclbench.fleet;

/**
 * One rail group's result: rail {@code rail} of ranks {@code a} and {@code b}.
 *
 * @param busbw GB/s, NaN when it failed
 * @param error why it failed, or null
 */
record RailMeasurement(int round, int rail, int a, int b, double busbw, String error) {
    boolean involves(int rank) {
        return a == rank || b == rank;
    }

    int other(int rank) {
        return a == rank ? b : a;
    }
}
