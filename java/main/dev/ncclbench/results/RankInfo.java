package dev.ncclbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One rank, as the header lists it and the result file writes it.
 *
 * @param device what the rank drives: "cuda:0 [0000:18:00.0] NVIDIA H200" for NCCL, "eth0 10.0.0.1" for sockets
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"rank", "local_rank", "host", "pid", "device"})
public record RankInfo(int rank, int localRank, String host, long pid, String device) {
}
