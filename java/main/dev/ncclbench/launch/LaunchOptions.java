package dev.ncclbench.launch;

/**
 * How this process finds the others, as the command line says: --rendezvous, --rank, --world-size; whether
 * --ranks was given; whether a progress bar may be drawn; whether a host-timed backend's rank threads are bound to
 * CPUs (--cpu-bind, {@link CpuBinding}).
 */
public record LaunchOptions(String rendezvous, Integer rank, Integer worldSize, boolean ranksGiven, boolean progress,
                            boolean cpuBind) {
}
