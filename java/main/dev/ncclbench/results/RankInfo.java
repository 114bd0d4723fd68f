package dev.ncclbench.results;

/**
 * One rank, as the header lists it.
 *
 * @param device what the rank drives: "cuda:0 [0000:18:00.0] NVIDIA H200" for NCCL, "eth0 10.0.0.1" for sockets
 */
public record RankInfo(int rank, int localRank, String host, long pid, String device) {
}
