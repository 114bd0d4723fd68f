package dev.ncclbench.backend;

/**
 * Whether a backend can run here.
 *
 * @param found  what was found and where (e.g. "NCCL 2.30.7 at /opt/.../libnccl.so.2")
 * @param reason why it cannot run, null when ready
 * @param remedy what to change, null when ready
 */
public record Readiness(boolean ready, String found, String reason, String remedy) {
    public static Readiness ready(String found) {
        return new Readiness(true, found, null, null);
    }

    public static Readiness notReady(String found, String reason, String remedy) {
        return new Readiness(false, found, reason, remedy);
    }
}
