package dev.ncclbench.fleet;

import dev.ncclbench.spec.Defaults;
import dev.ncclbench.spec.MaxBytesSource;
import dev.ncclbench.spec.RunSpec;

import java.nio.file.Path;
import java.util.List;

/**
 * What every group measures, and how long a round may take.
 *
 * @param sizes          all_reduce sizes in bytes (a few large ones: the bandwidth, not the latency)
 * @param sendrecv       also a sendrecv both ways (pairs) at the same sizes
 * @param iters          timed iterations per size (fewer when the size's share of the round's time is spent)
 * @param warmup         warm-up iterations per size
 * @param roundSeconds   -T: the limit of one round; a node that has not answered by then is unreachable
 * @param backend        auto, nccl or socket
 * @param socketsPerPeer socket backend: TCP connections per pair
 * @param socketIfname   NCCL_SOCKET_IFNAME, or null
 */
public record FleetSettings(List<Long> sizes, boolean sendrecv, int iters, int warmup, int roundSeconds,
                            String backend, int socketsPerPeer, String socketIfname) {
    public static final int DEFAULT_ROUND_SECONDS = 60;
    public static final List<Long> DEFAULT_SIZES = List.of(16L << 20, 64L << 20);
    public static final int DEFAULT_ITERS = 5;

    public FleetSettings {
        sizes = List.copyOf(sizes);
    }

    public List<String> collectives() {
        return sendrecv ? List.of("all_reduce", "sendrecv") : List.of("all_reduce");
    }

    public long roundMillis() {
        return roundSeconds * 1000L;
    }

    /** Time each size may take within a round, so that a crawling link still answers before the limit. */
    public long budgetMillis() {
        return Math.max(500, roundMillis() / 2 / (sizes.size() * (long) collectives().size()));
    }

    /**
     * The most a round may take before a group still running is given up as unfinished (failed, its members
     * still reachable): the measuring budget (half of -T), and -T again for set-up and the backend's own timeouts.
     */
    public long roundCapMillis() {
        return roundMillis() * 2 + 10_000;
    }

    /**
     * The sweep's spec the backend opens a group with: the sweep's defaults ({@link RunSpec#builder}) but for what a
     * round sets, the largest rank's time (-a 3: a round is as slow as its slowest member) and no check.
     */
    public RunSpec runSpec(Path outDir) {
        long max = sizes.stream().mapToLong(Long::longValue).max().orElse(1L << 20);
        long min = sizes.stream().mapToLong(Long::longValue).min().orElse(max);
        return RunSpec.builder().collectives(collectives())
                .minBytes(min).maxBytes(max).maxBytesSource(MaxBytesSource.FLAG).stepFactor(Defaults.STEP_FACTOR)
                .iters(iters).warmupIters(warmup).checkIters(0).average(3).timeoutSeconds(roundSeconds)
                .backend(backend).localRanks(1).outDir(outDir)
                .socketsPerPeer(socketsPerPeer).socketIfname(socketIfname)
                .build();
    }
}
