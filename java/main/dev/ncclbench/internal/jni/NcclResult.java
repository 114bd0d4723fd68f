package dev.ncclbench.internal.jni;

/**
 * NCCL's ncclResult_t and the probe's own negative codes, with fixed values kept in sync with nccl.h
 * and native/probe/ncclprobe.h. NcclResultTest raises every code through the native test hook.
 */
public enum NcclResult {
    SUCCESS(0, "ncclSuccess"),
    UNHANDLED_CUDA_ERROR(1, "ncclUnhandledCudaError"),
    SYSTEM_ERROR(2, "ncclSystemError"),
    INTERNAL_ERROR(3, "ncclInternalError"),
    INVALID_ARGUMENT(4, "ncclInvalidArgument"),
    INVALID_USAGE(5, "ncclInvalidUsage"),
    REMOTE_ERROR(6, "ncclRemoteError"),
    IN_PROGRESS(7, "ncclInProgress"),
    TIMEOUT(8, "ncclTimeout"),
    /** NCCLPROBE_NOT_LOADED: dlopen failed. */
    PROBE_NOT_LOADED(-1, "NCCLPROBE_NOT_LOADED"),
    /** NCCLPROBE_NO_SYMBOL: the library is older than the call. */
    PROBE_NO_SYMBOL(-2, "NCCLPROBE_NO_SYMBOL"),
    PROBE_BAD_ARGUMENT(-3, "NCCLPROBE_BAD_ARGUMENT"),
    PROBE_SETENV_FAILED(-4, "NCCLPROBE_SETENV_FAILED"),
    /** A value this build does not know (a newer NCCL). */
    UNKNOWN(Integer.MIN_VALUE, "unknown");

    public final int code;
    /** The name in nccl.h or ncclprobe.h. */
    public final String cName;

    NcclResult(int code, String cName) {
        this.code = code;
        this.cName = cName;
    }

    public static NcclResult of(int code) {
        for (NcclResult r : values()) {
            if (r.code == code && r != UNKNOWN) {
                return r;
            }
        }
        return UNKNOWN;
    }

    public boolean isNccl() {
        return code >= 0;
    }
}
