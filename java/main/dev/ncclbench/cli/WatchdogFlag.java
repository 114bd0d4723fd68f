package dev.ncclbench.cli;

import dev.ncclbench.spec.Defaults;
import picocli.CommandLine.Option;

/**
 * -T, nccl-tests' watchdog: shared by sweep, preflight and fleet, with one meaning. A rank that makes no progress this
 * long is a hang, said in HangReport's words; a sweep stops there with exit 5, fleet fails the group it happened in
 * (the group's link is judged, the search goes on). 0 is the command's own watchdog: {@link Defaults#WATCHDOG_SECONDS}
 * for a sweep, the round's limit for fleet (a watchdog longer than the round could not fire before rank 0 gives the
 * group up: fleet refuses one).
 */
final class WatchdogFlag {
    @Option(names = {"-T", "--timeout"}, paramLabel = "SECONDS", converter = Ranges.NonNegative.class,
            description = "The watchdog: a rank that makes no progress this long is a hang; a sweep stops with exit 5,"
            + " fleet fails that group and goes on; 0 = "
            + Defaults.WATCHDOG_SECONDS + " s (fleet: --round-timeout) (default: ${DEFAULT-VALUE})")
    int timeout = 0;
}
