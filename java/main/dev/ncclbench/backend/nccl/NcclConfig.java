package dev.ncclbench.backend.nccl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The ncclConfig_t every communicator is created with, as nccl-tests v2.19.6 creates its (common.cu initComms,
 * sendrecv.cu SendRecvInitCommConfig) when built against NCCL 2.30: NCCL_CONFIG_INITIALIZER, plus
 * nvlinkCentricSched = 1 (NCCL >= 2.28), plus maxP2pPeers = 2 for a sweep of sendrecv alone (NCCL >= 2.30: the ring
 * has two peers per rank). Written byte by byte in nccl.h 2.30's layout (ncclConfig_v23000, 96 bytes on x86-64),
 * because JavaCPP's ncclConfig_t is compiled from an older header without maxP2pPeers. An older libnccl copies only
 * the first sizeof(its own ncclConfig_t) bytes and takes defaults for fields newer than the version it is told
 * (nccl src/init.cc, parseCommConfig), so one image serves every NCCL from 2.14.
 */
final class NcclConfig {
    /** sizeof(ncclConfig_t) of nccl.h 2.30 on LP64. */
    static final int SIZE = 96;
    static final int MAGIC = 0xcafebeef;
    /** NCCL_VERSION(2, 30, 0): the header whose layout this is. */
    static final int VERSION = 23000;
    static final int UNDEF_INT = Integer.MIN_VALUE;
    /** Byte offsets in ncclConfig_v23000. */
    static final int NET_NAME = 32;
    static final int COMM_NAME = 48;
    static final int NVLINK_CENTRIC_SCHED = 76;
    static final int MAX_P2P_PEERS = 88;

    private NcclConfig() {
    }

    /**
     * @param libraryVersion the loaded libnccl's version code (22809 for 2.28.9)
     * @param sendrecvOnly   the sweep runs sendrecv and nothing else
     */
    static byte[] image(int libraryVersion, boolean sendrecvOnly) {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.nativeOrder());
        b.putLong(0, SIZE).putInt(8, MAGIC).putInt(12, VERSION);
        for (int off = 16; off < SIZE; off += 4) {
            b.putInt(off, UNDEF_INT);
        }
        b.putLong(NET_NAME, 0).putLong(COMM_NAME, 0); // NCCL_CONFIG_UNDEF_PTR
        if (libraryVersion >= 22800) {
            b.putInt(NVLINK_CENTRIC_SCHED, 1);
        }
        if (libraryVersion >= 23000 && sendrecvOnly) {
            b.putInt(MAX_P2P_PEERS, 2);
        }
        return b.array();
    }

    /** For the header: what differs from NCCL's defaults. */
    static String describe(int libraryVersion, boolean sendrecvOnly) {
        StringBuilder sb = new StringBuilder("communicators: ncclCommInitRankConfig with NCCL_CONFIG_INITIALIZER");
        if (libraryVersion >= 22800) {
            sb.append(", nvlinkCentricSched=1");
        }
        if (libraryVersion >= 23000 && sendrecvOnly) {
            sb.append(", maxP2pPeers=2");
        }
        return sb.append(" (as nccl-tests v2.19.6); streams non-blocking").toString();
    }
}
