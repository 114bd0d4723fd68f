package dev.ncclbench.backend;

/**
 * Where a backend keeps its buffers and how much room there is, so that a size that cannot fit is refused before
 * the sweep instead of failing in the middle of it.
 *
 * @param where          "JVM direct memory", "device memory of cuda:0", ...
 * @param buffersPerRank buffers of max(send, receive) bytes each local rank holds at once
 * @param availableBytes what this process can hold in {@code where}
 * @param remedy         what to change when it does not fit, besides a smaller -e
 * @param perDevice      every local rank has its own memory (a GPU each) and {@code availableBytes} is already what
 *                       the buffers may take there: judged per rank, with no further headroom
 */
public record MemoryBudget(String where, int buffersPerRank, long availableBytes, String remedy, boolean perDevice) {

    /** Memory the local ranks share (the JVM's): judged for all of them together, with headroom. */
    public MemoryBudget(String where, int buffersPerRank, long availableBytes, String remedy) {
        this(where, buffersPerRank, availableBytes, remedy, false);
    }

    /** Memory each rank has for itself (a GPU). */
    public static MemoryBudget perDevice(String where, int buffers, long availableBytes, String remedy) {
        return new MemoryBudget(where, buffers, availableBytes, remedy, true);
    }

    /** The largest buffer that fits one rank: the -e to cap a default at. */
    public long largestBuffer() {
        return availableBytes / Math.max(1, buffersPerRank);
    }
}
