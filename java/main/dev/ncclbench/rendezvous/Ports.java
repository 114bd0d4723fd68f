package dev.ncclbench.rendezvous;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Ports for the rendezvous that the kernel does not hand out on its own: outside
 * /proc/sys/net/ipv4/ip_local_port_range, where every outgoing connection takes its local port (a derived port in
 * that range collides with some connection's TIME-WAIT sooner or later).
 */
public final class Ports {
    /** Below this are the well-known and commonly configured ports (ssh, NFS, torchrun's 29500 is above). */
    static final int LOWEST = 10000;
    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private Ports() {
    }

    /** The kernel's ephemeral range [low, high]; Linux's default when it cannot be read. */
    public static int[] ephemeralRange() {
        try {
            String[] parts = Files.readString(RANGE).trim().split("\\s+");
            int lo = Integer.parseInt(parts[0]);
            int hi = Integer.parseInt(parts[1]);
            if (lo >= 1 && hi <= 65535 && lo <= hi) {
                return new int[] {lo, hi};
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or a sandbox without /proc: assume the default
        }
        return new int[] {32768, 60999};
    }

    /** A port from {@code key}, the same in every process of a job, outside the ephemeral range. */
    public static int derive(String key) {
        int[] eph = ephemeralRange();
        // the usable ports: [LOWEST, eph[0]) and (eph[1], 65535]
        int below = Math.max(0, eph[0] - LOWEST);
        int above = Math.max(0, 65535 - eph[1]);
        int total = below + above;
        if (total == 0) {
            return LOWEST;
        }
        int i = Math.floorMod(key.hashCode(), total);
        return i < below ? LOWEST + i : eph[1] + 1 + (i - below);
    }
}
