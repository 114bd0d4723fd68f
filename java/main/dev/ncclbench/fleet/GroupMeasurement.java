package dev.ncclbench.fleet;

import dev.ncclbench.baseline.SizeSamples;

import java.util.List;

/**
 * One group's result in one round.
 *
 * @param round   1-based
 * @param group   who ran, and why
 * @param load    the most groups any member ran at the same time (1 in disjoint rounds)
 * @param busbw   GB/s at the best of the sizes, or NaN when it failed
 * @param error   why it failed, or null
 * @param samples per collective and size, the per-iteration times (what a baseline records and the gate's test
 *                compares), or null where none were kept
 */
public record GroupMeasurement(int round, Group group, int load, double busbw, String error, List<SizeSamples> samples) {

    public static GroupMeasurement ok(int round, Group group, int load, double busbw) {
        return new GroupMeasurement(round, group, load, busbw, null, null);
    }

    public static GroupMeasurement ok(int round, Group group, int load, double busbw, List<SizeSamples> samples) {
        return new GroupMeasurement(round, group, load, busbw, null, samples);
    }

    public static GroupMeasurement failed(int round, Group group, int load, String error) {
        return new GroupMeasurement(round, group, load, Double.NaN, error, null);
    }

    public boolean failed() {
        return error != null;
    }
}
