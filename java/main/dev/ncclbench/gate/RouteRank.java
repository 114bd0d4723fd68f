package dev.ncclbench.gate;

import java.util.Map;

/** Whether a path verdict is worse than another: sockets under host-staged RDMA under GPUDirect RDMA. */
final class RouteRank {
    private static final Map<String, Integer> RANK = Map.ofEntries(
            Map.entry("failed", 0), Map.entry("socket", 1), Map.entry("shm", 1), Map.entry("rdma-host-staged", 2),
            Map.entry("p2p", 2), Map.entry("rdma-partial-gdr", 3), Map.entry("nvls", 3), Map.entry("rdma", 4),
            Map.entry("plugin-net", 4), Map.entry("rdma-gdr", 5), Map.entry("collnet", 6));

    private RouteRank() {
    }

    /** True when both paths are known and the run's is worse than the baseline's. */
    static boolean worse(String baseline, String run) {
        Integer b = RANK.get(baseline);
        Integer r = RANK.get(run);
        return b != null && r != null && r < b;
    }
}
