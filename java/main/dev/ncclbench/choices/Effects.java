package dev.ncclbench.choices;

import java.util.Map;

/**
 * What each kind of change does to the bytes, in the user's words. The sizes come from NCCL-FACTS.md section 6
 * (healthy and degraded busbw per interconnect); they are what the change can cost, not a measurement.
 */
final class Effects {
    private Effects() {
    }

    static final String TO_SOCKET = "inter-node bytes now go through TCP sockets and the host CPU: busbw falls to"
            + " the socket floor (30-50% of a 100G link, far less of a 400G one)";
    static final String FROM_SOCKET = "inter-node bytes now go over RDMA instead of TCP sockets: busbw can reach"
            + " 92-98% of the NIC's line rate";
    static final String OTHER_NETWORK = "another network transport carries the inter-node bytes: busbw follows"
            + " what that transport reaches";
    /** After the side that lost it: "receive staged through host memory; ...". */
    static final String GDR_OFF = " staged through host memory; up to half the busbw on large messages";
    static final String GDR_ON = "the NIC reads and writes GPU memory directly, no staging through host memory;"
            + " up to twice the busbw on large messages";
    static final String FEWER_NICS = "fewer NICs carry the inter-node bytes: large-message busbw scales down with"
            + " the NIC count";
    static final String MORE_NICS = "more NICs carry the inter-node bytes: large-message busbw can scale up with"
            + " the NIC count";
    static final String OTHER_NICS = "other NICs carry the inter-node bytes: busbw follows their links and their"
            + " distance to the GPUs";
    static final String TO_SHM = "GPU-to-GPU bytes inside a node are staged through host shared memory instead of"
            + " going peer to peer: a fraction of the NVLink or PCIe bandwidth";
    static final String FROM_SHM = "GPU-to-GPU bytes inside a node go peer to peer again instead of through host"
            + " shared memory: intra-node busbw can rise several times";
    static final String P2P_MODE = "the same links, another way of mapping peer buffers (cuMem or legacy CUDA IPC):"
            + " bandwidth should not change; memory use, registration and init time can";
    static final String NVLS_OFF = "large all_reduce inside a node no longer uses NVLink SHARP: busbw drops to what"
            + " a ring reaches (8xH100/H200: about 480 to 370 GB/s)";
    static final String NVLS_ON = "large all_reduce inside a node uses NVLink SHARP: busbw above what a ring reaches"
            + " (8xH100/H200: about 370 to 480 GB/s)";
    static final String COLLNET_OFF = "no in-network reduction (CollNet/SHARP): all_reduce goes back to ring or"
            + " tree over the NICs, more bytes on every link";
    static final String COLLNET_ON = "all_reduce is reduced in the network (CollNet/SHARP): fewer bytes cross each"
            + " NIC";
    static final String FEWER_CHANNELS = "fewer channels move data in parallel (fewer SMs and connections):"
            + " large-message busbw can drop; small messages are unaffected";
    static final String MORE_CHANNELS = "more channels move data in parallel: large-message busbw can rise, at the"
            + " cost of more SMs";
    static final String PXN_OFF = "no PXN: each GPU sends through its own path to a NIC instead of over NVLink to"
            + " the GPU beside the rail's NIC; cross-rail traffic can slow";
    static final String PXN_ON = "PXN: bytes first cross NVLink to the GPU beside the rail's NIC, then leave the"
            + " node; rail-aligned fabrics keep line rate";
    static final String TUNING = "another algorithm or protocol at these sizes: their latency and busbw change"
            + " (LL for small messages, SIMPLE for large; RING, TREE, NVLS, PAT, CollNet move different byte counts)";
    static final String TO_COPY_ENGINE = "the collective now runs on the GPU's copy engines (cudaMemcpy over NVLink,"
            + " NCCL 2.28+), no SM kernel: the SMs are free for compute; its busbw is the copy engines' rate";
    static final String TO_SYMMETRIC = "the collective now runs a symmetric kernel on registered memory windows (NCCL"
            + " 2.27+; an MC kernel uses NVLink SHARP multicast): lower latency inside the NVLink domain";
    static final String FEWER_NICS_POLICY = "fewer NICs carry the inter-node bytes, as NCCL_NETDEVS_POLICY asks"
            + " (2.29+: how many NICs each GPU may use); a NIC left unused by alltoall or send/recv under the policy is"
            + " not a fault";
    static final String VERSION = "another NCCL: its defaults (tuning, transports, plugins) may differ; the"
            + " changes listed are what it decided";
    static final String ENV = "NCCL read another value for this setting";

    /** What a setting is for, so a changed one points at the decision it drives. */
    private static final Map<String, String> SETTINGS = Map.ofEntries(
            Map.entry("NCCL_IB_DISABLE", "non-zero turns InfiniBand/RoCE off: NCCL falls back to TCP sockets"),
            Map.entry("NCCL_NET", "names the network NCCL must use; no match fails init"),
            Map.entry("NCCL_NET_GDR_LEVEL", "how close a NIC and GPU must be for GPUDirect RDMA; too strict stages"
                    + " bytes through host memory"),
            Map.entry("NCCL_NET_GDR_READ", "GPUDirect RDMA on the send side"),
            Map.entry("NCCL_IB_HCA", "which NICs NCCL may use (prefix match unless =)"),
            Map.entry("NCCL_SOCKET_IFNAME", "which interfaces bootstrap and NET/Socket use"),
            Map.entry("NCCL_P2P_DISABLE", "1 turns GPU peer-to-peer off: intra-node bytes go through host memory"),
            Map.entry("NCCL_SHM_DISABLE", "1 turns the shared-memory transport off"),
            Map.entry("NCCL_ALGO", "restricts the algorithms NCCL may choose"),
            Map.entry("NCCL_PROTO", "restricts the protocols NCCL may choose"),
            Map.entry("NCCL_MIN_NCHANNELS", "the fewest channels NCCL uses"),
            Map.entry("NCCL_MAX_NCHANNELS", "the most channels NCCL uses"),
            Map.entry("NCCL_NVLS_ENABLE", "NVLink SHARP on or off"),
            Map.entry("NCCL_COLLNET_ENABLE", "CollNet (in-network reduction) on or off"),
            Map.entry("NCCL_PXN_DISABLE", "1 turns PXN off"),
            Map.entry("NCCL_CUMEM_ENABLE", "cuMem or legacy CUDA IPC for peer buffers"),
            Map.entry("NCCL_NET_PLUGIN", "which network plugin NCCL loads"),
            Map.entry("NCCL_NETDEVS_POLICY", "how many NICs each GPU may use (AUTO, MAX:n, ALL; 2.29+)"),
            Map.entry("NCCL_ENV_PLUGIN", "the environment plugin NCCL read its settings through (2.28+)"),
            Map.entry("NCCL_CE_COLL_ENABLE", "copy-engine collectives on or off (2.28+)"));

    static String setting(String name) {
        String s = SETTINGS.get(name);
        return s == null ? ENV : ENV + " (" + name + ": " + s + ")";
    }
}
