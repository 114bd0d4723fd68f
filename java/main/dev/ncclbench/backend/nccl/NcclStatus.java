package dev.ncclbench.backend.nccl;

import dev.ncclbench.ExitCode;
import dev.ncclbench.internal.jni.NcclResult;

/** What an ncclResult_t means for the run: ncclTimeout is a hang (exit 5), every other failure exit 4. */
final class NcclStatus {
    private NcclStatus() {
    }

    static ExitCode exitCode(int result) {
        if (result == NcclResult.SUCCESS.code) {
            return ExitCode.OK;
        }
        return result == NcclResult.TIMEOUT.code ? ExitCode.TIMEOUT : ExitCode.RUN_FAILED;
    }

    /** ncclInProgress: a non-blocking communicator has not finished yet; not an error. */
    static boolean pending(int result) {
        return result == NcclResult.IN_PROGRESS.code;
    }

    /** ncclSuccess or ncclInProgress: nothing has failed. */
    static boolean healthy(int result) {
        return result == NcclResult.SUCCESS.code || pending(result);
    }

    static String name(int result) {
        NcclResult r = NcclResult.of(result);
        return r == NcclResult.UNKNOWN ? "ncclResult " + result : r.cName;
    }
}
