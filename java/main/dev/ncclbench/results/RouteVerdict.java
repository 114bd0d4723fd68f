package dev.ncclbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;

/**
 * Which path the bytes of a row took, and how sure we are. Filled by the diagnosis; results only print it.
 *
 * @param path       e.g. "socket", "rdma-host-staged", "rdma-gdr", "p2p", "shm", "nvls", "loopback", "unknown"
 * @param confidence "certain" (from NCCL's log), "likely" (numbers), "unknown"
 * @param reason     one sentence a cluster engineer can act on
 * @param evidence   where it came from: log file:line, or the measured figure against the catalog
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"path", "confidence", "reason", "evidence"})
public record RouteVerdict(String path, String confidence, String reason, List<String> evidence) {
    public RouteVerdict {
        // the result file writes [] for no evidence, never null
        evidence = evidence == null ? List.of() : evidence;
    }
}
