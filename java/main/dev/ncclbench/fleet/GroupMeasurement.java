package dev.ncclbench.fleet;

/**
 * One group's result in one round.
 *
 * @param round  1-based
 * @param group  who ran, and why
 * @param load   the most groups any member ran at the same time (1 in disjoint rounds)
 * @param busbw  GB/s at the best of the sizes, or NaN when it failed
 * @param error  why it failed, or null
 */
public record GroupMeasurement(int round, Group group, int load, double busbw, String error) {

    public static GroupMeasurement ok(int round, Group group, int load, double busbw) {
        return new GroupMeasurement(round, group, load, busbw, null);
    }

    public static GroupMeasurement failed(int round, Group group, int load, String error) {
        return new GroupMeasurement(round, group, load, Double.NaN, error);
    }

    public boolean failed() {
        return error != null;
    }
}
