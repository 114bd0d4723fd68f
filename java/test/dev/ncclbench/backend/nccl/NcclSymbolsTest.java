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
        assertTrue(s.register() && s.window(), "nccl-tests' -R 1 and -R 2 calls: " + s);
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

    /** -R: local registration from 2.19 (ncclCommRegister), symmetric windows from 2.27 (ncclCommWindowRegister). */
    @Test
    void registrationCallsAreLookedUpByName() {
        Set<String> nccl219 = Set.of("ncclMemAlloc", "ncclMemFree", "ncclCommRegister", "ncclCommDeregister");
        NcclSymbols s = NcclSymbols.lookUp(nccl219::contains);
        assertTrue(s.register());
        assertFalse(s.window());
        org.junit.jupiter.api.Assertions.assertEquals("-R 2 (local_register) needs ncclCommWindowRegister (NCCL 2.27 and"
                + " later), which NCCL 2.19.3 does not have; nccl-tests itself falls back to -R 1 there: use -R 1",
                NcclRegistration.missing(2, s, "2.19.3"));
        assertTrue(NcclRegistration.missing(1, s, "2.19.3") == null);
        assertTrue(NcclRegistration.missing(1, NcclSymbols.NONE, "2.18.5").startsWith("-R 1 (local_register) needs"
                + " ncclCommRegister (NCCL 2.19 and later), which NCCL 2.18.5 does not have"));
    }
}
