package dev.ncclbench.cli;

import picocli.CommandLine.Option;

/** Where this process is in the job when no launcher says so: shared by sweep, fleet and preflight. */
final class LaunchFlags {
    @Option(names = "--rendezvous", paramLabel = "HOST:PORT", description = "Rank 0's store address (default:"
            + " MASTER_ADDR:MASTER_PORT, or loopback for one-node jobs)")
    String rendezvous;

    @Option(names = "--rank", paramLabel = "N", converter = Ranges.NonNegative.class,
            description = "This process's rank, when no launcher sets it")
    Integer rank;

    @Option(names = "--world-size", paramLabel = "N", converter = Ranges.Positive.class,
            description = "Number of processes (one per node for fleet), when no launcher sets it")
    Integer worldSize;
}
