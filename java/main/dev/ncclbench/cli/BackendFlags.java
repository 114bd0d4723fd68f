package dev.ncclbench.cli;

import dev.ncclbench.spec.Defaults;
import picocli.CommandLine.Option;

/** --backend and --sockets-per-peer: shared by sweep, preflight and fleet. */
final class BackendFlags {
    @Option(names = "--backend", paramLabel = "NAME", converter = Choices.Backend.class,
            completionCandidates = Choices.BackendNames.class, description = "${COMPLETION-CANDIDATES} (default:"
            + " ${DEFAULT-VALUE}: nccl when a GPU and NCCL are usable, else socket)")
    String backend = Defaults.BACKEND;

    @Option(names = "--sockets-per-peer", paramLabel = "N", converter = Ranges.SocketsPerPeer.class,
            description = "TCP connections per peer: a sweep's ring neighbour, fleet's pair (socket backend,"
            + " default: ${DEFAULT-VALUE})")
    int socketsPerPeer = Defaults.SOCKETS_PER_PEER;
}
