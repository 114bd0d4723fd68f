package dev.ncclbench.cli;

import picocli.CommandLine.Option;

/** What sockets reach on the same interface, for the curve check: shared by sweep, gate, report and preflight. */
final class SocketFloorFlag {
    @Option(names = "--socket-floor", paramLabel = "GBPS|FILE", description = "What the socket backend reached on the"
            + " same interface: GB/s, or a socket run's result JSON (its largest size's busbw)")
    String socketFloor;
}
