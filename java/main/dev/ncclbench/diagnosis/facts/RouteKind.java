package dev.ncclbench.diagnosis.facts;

import java.util.Comparator;
import java.util.List;

/** The paths the bytes can take; id is what results carry. Which is worse is {@link #WORST_FIRST}, not the ordinal. */
public enum RouteKind {
    FAILED("failed", "no path: NCCL did not initialise"),
    SOCKET("socket", "inter-node TCP sockets (NET/Socket)"),
    RDMA_HOST_STAGED("rdma-host-staged", "inter-node RDMA staged through host memory (no GPUDirect RDMA)"),
    RDMA_PARTIAL_GDR("rdma-partial-gdr", "inter-node RDMA, GPUDirect RDMA on some sides or nodes only"),
    RDMA("rdma", "inter-node RDMA (host-staged or GPUDirect: numbers cannot tell)"),
    PLUGIN_NET("plugin-net", "inter-node network plugin"),
    RDMA_GDR("rdma-gdr", "inter-node GPUDirect RDMA"),
    COLLNET("collnet", "CollNet (in-network reduction)"),
    SHM("shm", "intra-node through host shared memory"),
    P2P("p2p", "intra-node GPU peer to peer (NVLink or PCIe)"),
    NVLS("nvls", "intra-node NVLink SHARP (NVLS)"),
    LOOPBACK("loopback", "one rank: no data leaves the GPU"),
    UNKNOWN("unknown", "unknown: not enough evidence");

    /**
     * The bottleneck order: the first of these a job's pairs use is its path. A socket pair drags the whole ring
     * down more than a host-staged one, and so on; intra-node paths come after every inter-node one.
     */
    public static final List<RouteKind> WORST_FIRST = List.of(FAILED, SOCKET, RDMA_HOST_STAGED, RDMA_PARTIAL_GDR,
            RDMA, PLUGIN_NET, RDMA_GDR, COLLNET, SHM, P2P, NVLS, LOOPBACK, UNKNOWN);

    /** Orders paths worst first. */
    public static final Comparator<RouteKind> WORSE_FIRST = Comparator.comparingInt(WORST_FIRST::indexOf);

    public final String id;
    public final String description;

    RouteKind(String id, String description) {
        this.id = id;
        this.description = description;
    }

    public boolean interNode() {
        return this == SOCKET || this == RDMA_HOST_STAGED || this == RDMA_PARTIAL_GDR || this == RDMA
                || this == PLUGIN_NET || this == RDMA_GDR || this == COLLNET;
    }

    /** Whether this path is worse (a tighter bottleneck) than other. */
    public boolean worseThan(RouteKind other) {
        return WORSE_FIRST.compare(this, other) < 0;
    }
}
