package dev.ncclbench.diagnosis.facts;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;

/**
 * The path between two ranks, both sides combined.
 *
 * @param network  the NET name (Socket, IB, IBext_v8, AWS Libfabric) or "" intra-node
 * @param detail   e.g. "GDRDMA on send and receive", "P2P/IPC", "send without GDRDMA"
 * @param channels the most channels one side of the pair used
 * @param evidence first line of each side
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record PairVerdict(int fromRank, int toRank, RouteKind path, String network, String detail, int channels,
                          List<String> evidence) {
}
