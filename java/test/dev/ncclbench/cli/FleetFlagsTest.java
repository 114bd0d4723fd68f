package dev.ncclbench.cli;

import dev.ncclbench.fleet.FleetSettings;
import dev.ncclbench.spec.RunSpec;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fleet takes the sweep's shared flags through the sweep's own mixins: -n, -w, -T, --backend and --sockets-per-peer
 * mean in fleet what they mean in a sweep (the same spec fields, -T the watchdog), each command's help shows its own
 * defaults, and a round's limit is --round-timeout (fleet's -T before it).
 */
class FleetFlagsTest {
    private static RunSpec fleetSpec(String... args) {
        FleetCommand fleet = OnHost.parsed("fleet", Map.of(), args);
        return fleet.settings().runSpec(Path.of("runs"));
    }

    @Test
    void theSharedFlagsMeanInFleetWhatTheyMeanInASweep() {
        String[] shared = {"-n", "7", "-w", "2", "-T", "9", "--backend", "socket", "--sockets-per-peer", "3"};
        SweepCommand sweep = OnHost.parsed("sweep", Map.of(), shared);
        RunSpec swept = sweep.resolve();
        RunSpec round = fleetSpec(shared);
        assertEquals(7, round.iterations().iters());
        assertEquals(swept.iterations().iters(), round.iterations().iters());
        assertEquals(swept.iterations().warmupIters(), round.iterations().warmupIters());
        assertEquals(9, round.timing().timeoutSeconds(), "-T is the groups' watchdog, as a sweep's");
        assertEquals(swept.timing().timeoutSeconds(), round.timing().timeoutSeconds());
        assertEquals(swept.timeoutMillis(), round.timeoutMillis());
        assertEquals(swept.placement().backend(), round.placement().backend());
        assertEquals(swept.socket().perPeer(), round.socket().perPeer());
    }

    @Test
    void aRoundsLimitIsRoundTimeoutAndMinusTZeroWatchesByIt() {
        FleetCommand defaults = OnHost.parsed("fleet", Map.of());
        assertEquals(FleetSettings.DEFAULT_ROUND_SECONDS, defaults.settings().roundSeconds());
        assertEquals(FleetSettings.DEFAULT_ITERS, defaults.settings().iters());
        FleetCommand f = OnHost.parsed("fleet", Map.of(), "--round-timeout", "30");
        assertEquals(30, f.settings().roundSeconds());
        assertEquals(0, f.settings().timeoutSeconds());
        assertEquals(30, f.settings().runSpec(Path.of("runs")).timing().timeoutSeconds(),
                "-T 0: the watchdog is the round's limit, never longer than a round");
        FleetCommand both = OnHost.parsed("fleet", Map.of(), "--round-timeout", "30", "-T", "5");
        assertEquals(30, both.settings().roundSeconds(), "-T does not change the round");
        assertEquals(5, both.settings().watchdogSeconds());
    }

    @Test
    void eachCommandsHelpShowsItsOwnDefaultsAndFleetsSaysWhatMinusTWas() {
        String fleet = usage("fleet");
        String sweep = usage("sweep");
        String preflight = usage("preflight");
        assertTrue(fleet.contains("--iters=N Timed iterations per size (default: 5)"), fleet);
        assertTrue(sweep.contains("--iters=N Timed iterations per size (default: 20)"), sweep);
        assertTrue(fleet.contains("fewer than -n once it has used its share of the round"), fleet);
        assertTrue(fleet.contains("--warmup_iters=N Warm-up iterations per size (default: 1)"), fleet);
        assertTrue(preflight.contains("--warmup_iters=N Warm-up iterations per size (default: 5)"), preflight);
        assertTrue(sweep.contains("--warmup_iters=N Warm-up iterations per size (default: 1)"), sweep);
        assertTrue(fleet.contains("--round-timeout=SECONDS Limit of one round"), fleet);
        assertTrue(fleet.contains("what was 'fleet -T 120' is 'fleet --round-timeout 120' now"), fleet);
        String watchdog = "-T, --timeout=SECONDS The watchdog: a rank that makes no progress this long is a hang";
        assertTrue(fleet.contains(watchdog) && sweep.contains(watchdog), fleet);
    }

    /** The command's --help, its white space made single spaces (picocli wraps at its width). */
    private static String usage(String name) {
        return OnHost.command(name, Map.of()).getUsageMessage().replaceAll("\\s+", " ");
    }
}
