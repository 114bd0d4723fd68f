package dev.ncclbench.internal.jni;

/** The one exception of the native boundary: a native status code and what was being done. */
public final class NcclProbeException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    public NcclProbeException(int status, String message) {
        super(message + " (" + NcclResult.of(status).cName + ", " + status + ")");
        this.status = status;
    }

    public NcclProbeException(String message, Throwable cause) {
        super(message, cause);
        this.status = NcclResult.PROBE_NOT_LOADED.code;
    }

    /** The raw native status code. */
    public int status() {
        return status;
    }

    public NcclResult result() {
        return NcclResult.of(status);
    }
}
