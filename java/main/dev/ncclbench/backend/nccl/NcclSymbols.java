package dev.ncclbench.backend.nccl;

import java.util.function.Predicate;

/**
 * Which calls newer than NCCL 2.14 (the oldest accepted) the loaded libnccl.so.2 exports, looked up by
 * name with dlsym through the probe library before any is called: JavaCPP binds lazily, and a call to a
 * missing symbol kills the JVM.
 *
 * @param memAlloc       ncclMemAlloc/ncclMemFree (2.19)
 * @param lastError      ncclGetLastError (2.13)
 * @param allToAll       ncclAlltoAll (2.28)
 * @param gatherScatter  ncclGather and ncclScatter (2.28)
 * @param configInit     ncclCommInitRankConfig (2.14)
 * @param register       ncclCommRegister/ncclCommDeregister (2.19): nccl-tests' -R 1
 * @param window         ncclCommWindowRegister/ncclCommWindowDeregister (2.27): nccl-tests' -R 2
 */
record NcclSymbols(boolean memAlloc, boolean lastError, boolean allToAll, boolean gatherScatter, boolean configInit,
                   boolean register, boolean window) {

    static NcclSymbols lookUp(Predicate<String> has) {
        return new NcclSymbols(has.test("ncclMemAlloc") && has.test("ncclMemFree"), has.test("ncclGetLastError"),
                has.test("ncclAlltoAll"), has.test("ncclGather") && has.test("ncclScatter"), has.test("ncclCommInitRankConfig"),
                has.test("ncclCommRegister") && has.test("ncclCommDeregister"),
                has.test("ncclCommWindowRegister") && has.test("ncclCommWindowDeregister"));
    }

    static final NcclSymbols NONE = new NcclSymbols(false, false, false, false, false, false, false);
}
