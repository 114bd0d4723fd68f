package dev.ncclbench.nccllog;

/** The transport named after "via" in a connection line. */
public enum Transport {
    /** GPU to GPU over NVLink or PCIe: P2P/direct pointer, P2P/IPC, P2P/CUMEM. */
    P2P,
    /** Staged through host shared memory: SHM/..., "direct shared memory" (<= 2.12). */
    SHM,
    /** The network: NET/Socket, NET/IB, NET/&lt;plugin&gt;. */
    NET,
    /** CollNet (SHARP and similar). */
    COLLNET,
    /** NVLink SHARP. */
    NVLS,
    /** A "via" we do not know; kept so nothing is silently dropped. */
    OTHER
}
