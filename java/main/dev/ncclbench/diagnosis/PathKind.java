package dev.ncclbench.diagnosis;

/** The paths the bytes can take, worst first among the network ones; id is what results carry. */
public enum PathKind {
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

    public final String id;
    public final String description;

    PathKind(String id, String description) {
        this.id = id;
        this.description = description;
    }

    public boolean interNode() {
        return this == SOCKET || this == RDMA_HOST_STAGED || this == RDMA_PARTIAL_GDR || this == RDMA
                || this == PLUGIN_NET || this == RDMA_GDR || this == COLLNET;
    }
}
