package dev.ncclbench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One rank, as the header lists it and the result file writes it.
 *
 * @param device what the rank drives: "cuda:0 [0000:18:00.0] NVIDIA H200" for NCCL, "eth0 10.0.0.1" for sockets
 * @param group  nccl-tests' colour under NCCL_TESTS_SPLIT (its "Group" column); 0, and not written, without a split
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"rank", "local_rank", "host", "pid", "device", "group"})
public record RankInfo(int rank, int localRank, String host, long pid, String device,
                       @JsonInclude(JsonInclude.Include.NON_DEFAULT) int group) {
    public RankInfo(int rank, int localRank, String host, long pid, String device) {
        this(rank, localRank, host, pid, device, 0);
    }

    public RankInfo withLocalRank(int local) {
        return new RankInfo(rank, local, host, pid, device, group);
    }
}
