package dev.ncclbench.cli;

import picocli.CommandLine.Option;

/**
 * -n and -w, nccl-tests' letters: shared by sweep, preflight and fleet. The defaults are the command's (sweep 20 and 1,
 * preflight 20 and 5, fleet 5 and 1: spec/SweepProfile, fleet/FleetSettings), given when the command makes its mixin,
 * so each command's help shows its own. fleet's footer says how its rounds bend -n (a time budget per size).
 */
final class IterationFlags {
    @Option(names = {"-n", "--iters"}, paramLabel = "N", converter = Ranges.Positive.class, description = "Timed"
            + " iterations per size (default: ${DEFAULT-VALUE})")
    int iters;

    @Option(names = {"-w", "--warmup_iters"}, paramLabel = "N", converter = Ranges.NonNegative.class,
            description = "Warm-up iterations per size (default: ${DEFAULT-VALUE})")
    int warmup;

    IterationFlags(int iters, int warmup) {
        this.iters = iters;
        this.warmup = warmup;
    }
}
