package dev.ncclbench.rendezvous;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 1024 simulated ranks against the real store over loopback ({@link ControlPlaneScale}): what goes through the store
 * a size grows with N, not N squared. Bounded on the store's own byte and message counts, never on time, so a busy
 * machine makes it slower, not red.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ControlPlaneScaleTest {

    @Test
    void aSizesControlTrafficGrowsWithNNotNSquared() throws Exception {
        // both ends of 1024 loopback connections live in this JVM
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            Assumptions.assumeTrue(os.getMaxFileDescriptorCount() >= 2400, "1024 simulated ranks need 2048 sockets:"
                    + " ulimit -n is " + os.getMaxFileDescriptorCount() + ", raise it to 2400 or more");
        }
        ControlPlaneScale.Result small = ControlPlaneScale.run(128, 3, 20, 120_000);
        ControlPlaneScale.Result big = ControlPlaneScale.run(1024, 3, 20, 120_000);
        int n = big.n();
        double payload = big.payload();
        // two placements a size, each gathering every rank's payload at rank 0: about 2 N x payload, plus framing
        assertTrue(big.bytesToRank0() >= 2 * n * payload, "rank 0 got every rank's figures: " + big.bytesToRank0());
        assertTrue(big.bytesToRank0() <= 3 * n * payload, "rank 0 gets O(N) bytes a size, got " + big.bytesToRank0()
                + " (N^2 would be " + 2.0 * n * n * payload + ")");
        // every other rank: the empty answers of two barriers and two gathers, a few dozen bytes
        assertTrue(big.bytesPerOtherRank() <= 64, "every other rank gets O(1) bytes a size, got " + big.bytesPerOtherRank());
        assertTrue(big.bytesOut() <= 4 * n * payload, "the store sends O(N) bytes a size, sent " + big.bytesOut());
        // four requests and four answers a rank a size, and the end's barrier and goodbyes spread over the sizes
        assertTrue(big.messages() <= 10 * n, "messages a size: " + big.messages());
        // growth from 128 to 1024 ranks (x8): linear gives 8, N^2 would give 64
        double growth = big.bytesOut() / small.bytesOut();
        assertTrue(growth < 12, "bytes through the store grew " + growth + "x for 8x the ranks");
    }
}
