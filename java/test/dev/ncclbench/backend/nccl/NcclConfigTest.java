package dev.ncclbench.backend.nccl;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The config image against nccl.h 2.30.7's NCCL_CONFIG_INITIALIZER (offsets checked with offsetof against
 * deps/nccl/include/nccl.h: size 96, netName 32, commName 48, nvlinkCentricSched 76, maxP2pPeers 88) and the two
 * fields nccl-tests v2.19.6 sets.
 */
class NcclConfigTest {
    private static ByteBuffer image(int version, boolean sendrecv) {
        return ByteBuffer.wrap(NcclConfig.image(version, sendrecv)).order(ByteOrder.nativeOrder());
    }

    @Test
    void theHeaderFieldsAreThoseOfTheInitializer() {
        ByteBuffer b = image(22809, false);
        assertEquals(96, b.capacity());
        assertEquals(96L, b.getLong(0), "size");
        assertEquals(0xcafebeef, b.getInt(8), "magic");
        assertEquals(23000, b.getInt(12), "version: the layout's header, NCCL_VERSION(2,30,0)");
    }

    @Test
    void everyOtherFieldIsUndefinedSoNcclTakesItsDefault() {
        ByteBuffer b = image(22700, false);
        for (int off = 16; off < 96; off += 4) {
            if (off == 32 || off == 36 || off == 48 || off == 52) {
                continue; // the two pointers
            }
            assertEquals(Integer.MIN_VALUE, b.getInt(off), "NCCL_CONFIG_UNDEF_INT at " + off);
        }
        assertEquals(0L, b.getLong(32), "netName NULL");
        assertEquals(0L, b.getLong(48), "commName NULL");
    }

    @Test
    void nvlinkCentricSchedIsOneFromNccl228() {
        assertEquals(Integer.MIN_VALUE, image(22707, false).getInt(76));
        assertEquals(1, image(22809, false).getInt(76));
    }

    @Test
    void maxP2pPeersIsTwoForASendrecvSweepFromNccl230Only() {
        assertEquals(2, image(23007, true).getInt(88));
        assertEquals(Integer.MIN_VALUE, image(23007, false).getInt(88), "alltoall and the rest talk to every peer");
        assertEquals(Integer.MIN_VALUE, image(22809, true).getInt(88));
    }

    @Test
    void theHeaderLineSaysWhatDiffersFromNcclsDefaults() {
        String d = NcclConfig.describe(23007, true);
        assertTrue(d.contains("nvlinkCentricSched=1") && d.contains("maxP2pPeers=2") && d.contains("non-blocking"), d);
    }
}
