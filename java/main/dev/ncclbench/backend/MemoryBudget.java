package dev.ncclbench.backend;

/**
 * Where a backend keeps its buffers and how much room there is, so that a size that cannot fit is refused before
 * the sweep instead of failing in the middle of it.
 *
 * @param where          "JVM direct memory", "device memory of cuda:0", ...
 * @param buffersPerRank buffers of max(send, receive) bytes each local rank holds at once
 * @param availableBytes what this process can hold in {@code where}
 * @param remedy         what to change when it does not fit, besides a smaller -e
 */
public record MemoryBudget(String where, int buffersPerRank, long availableBytes, String remedy) {
}
