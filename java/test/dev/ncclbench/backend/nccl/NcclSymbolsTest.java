package dev.ncclbench.backend.nccl;

import dev.ncclbench.env.RealNccl;
import dev.ncclbench.internal.jni.NcclProbe;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The symbols are asked of the real libnccl.so.2 with dlsym (the probe), never assumed from the version. */
class NcclSymbolsTest {
    @Test
    void theRealNccl230HasEveryNewerCall() {
        NcclProbe.open(RealNccl.require());
        NcclSymbols s = NcclSymbols.lookUp(NcclProbe::hasSymbol);
        assertTrue(s.allToAll() && s.gatherScatter() && s.memAlloc() && s.lastError() && s.configInit(), s.toString());
        assertFalse(NcclProbe.hasSymbol("ncclAlltoAllNoSuchVariant"));
    }

    @Test
    void anOlderNcclWithoutAlltoAllFallsBackToSendRecv() {
        // NCCL 2.27 exports everything of 2.28 but ncclAlltoAll, ncclGather and ncclScatter
        Set<String> nccl227 = Set.of("ncclMemAlloc", "ncclMemFree", "ncclGetLastError", "ncclCommInitRankConfig");
        NcclSymbols s = NcclSymbols.lookUp(nccl227::contains);
        assertFalse(s.allToAll());
        assertFalse(s.gatherScatter());
        assertTrue(s.memAlloc() && s.lastError());
    }
}
