package dev.ncclbench.fleet;

import dev.ncclbench.NcclbenchException;
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
 * @param roundSeconds   --round-timeout: the limit of one round; a node that has not answered by then is unreachable
 * @param timeoutSeconds -T, the watchdog as in a sweep: a rank that makes no progress in its group's collective (or in
 *                       a wait of its group's store) this long is a hang, and the group fails saying so; 0: the round's
 *                       limit ({@link #watchdogSeconds})
 * @param backend        auto, nccl or socket
 * @param socketsPerPeer socket backend: TCP connections per pair
 * @param socketIfname   NCCL_SOCKET_IFNAME, or null
 */
public record FleetSettings(List<Long> sizes, boolean sendrecv, int iters, int warmup, int roundSeconds,
                            int timeoutSeconds, String backend, int socketsPerPeer, String socketIfname) {
    public static final int DEFAULT_ROUND_SECONDS = 60;
    public static final List<Long> DEFAULT_SIZES = List.of(16L << 20, 64L << 20);
    public static final int DEFAULT_ITERS = 5;

    public FleetSettings {
        sizes = List.copyOf(sizes);
    }

    public List<String> collectives() {
        return sendrecv ? List.of("all_reduce", "sendrecv") : List.of("all_reduce");
    }

    /**
     * The watchdog: -T, or the round's limit when -T is 0. Never longer than the round: rank 0 gives a group up with its
     * round ({@link #roundCapMillis}), so a longer watchdog could not fire before the node's next round needs it.
     */
    public int watchdogSeconds() {
        return timeoutSeconds > 0 ? timeoutSeconds : roundSeconds;
    }

    /**
     * Refuses a -T longer than the round, in one line that tells a user of the old -T (the round's limit, before
     * --round-timeout) what to type now.
     */
    public void requireWatchdogWithinRound() {
        if (timeoutSeconds > roundSeconds) {
            throw NcclbenchException.usage("-T " + timeoutSeconds + " is longer than a round (--round-timeout "
                    + roundSeconds + "): rank 0 gives a group up with its round, so that watchdog could never fire;"
                    + " -T is the watchdog, as in sweep (it was fleet's round limit before): for longer rounds give"
                    + " --round-timeout " + timeoutSeconds + ", and -T at most that");
        }
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
     * still reachable): the measuring budget (half of the round), and the round again for set-up and the watchdog.
     */
    public long roundCapMillis() {
        return roundMillis() * 2 + 10_000;
    }

    /**
     * The sweep's spec the backend opens a group with: the sweep's defaults ({@link RunSpec#builder}) but for what a
     * round sets, the largest rank's time (-a 3: a round is as slow as its slowest member), no check, and the
     * watchdog ({@link #watchdogSeconds}: the spec's -T, which the backend and the group's store wait by).
     */
    public RunSpec runSpec(Path outDir) {
        long max = sizes.stream().mapToLong(Long::longValue).max().orElse(1L << 20);
        long min = sizes.stream().mapToLong(Long::longValue).min().orElse(max);
        return RunSpec.builder().collectives(collectives())
                .minBytes(min).maxBytes(max).maxBytesSource(MaxBytesSource.FLAG).stepFactor(Defaults.STEP_FACTOR)
                .iters(iters).warmupIters(warmup).checkIters(0).average(3).timeoutSeconds(watchdogSeconds())
                .backend(backend).localRanks(1).outDir(outDir)
                .socketsPerPeer(socketsPerPeer).socketIfname(socketIfname)
                .build();
    }
}
