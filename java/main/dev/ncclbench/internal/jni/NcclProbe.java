package dev.ncclbench.internal.jni;

import dev.ncclbench.NcclVersionCode;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Plain-Java face of the probe library: every call loads it lazily, checks the status code and turns a
 * failure into {@link NcclProbeException}. NCCL state is per process and sticky: the bootstrap probe
 * runs in a child JVM (see dev.ncclbench.env.ProbeRunner); only the version and the environment calls
 * are safe in a long-lived process.
 */
public final class NcclProbe {
    private static final int TEXT = 4096;

    private NcclProbe() {
    }

    /** dlopen()s libnccl.so.2 at {@code lib} (null: the loader's search path). */
    public static void open(Path lib) {
        NativeLoader.ensureLoaded();
        int rc = NcclProbeNative.ncclprobe_open(lib == null ? null : lib.toString());
        if (rc != 0) {
            throw new NcclProbeException(rc, "cannot load " + (lib == null ? "libnccl.so.2" : lib) + ": " + text(NcclProbeNative::ncclprobe_dl_error));
        }
    }

    public static boolean isOpen() {
        NativeLoader.ensureLoaded();
        return NcclProbeNative.ncclprobe_is_open() == 1;
    }

    /** The file the dynamic loader opened. */
    public static String loadedPath() {
        NativeLoader.ensureLoaded();
        byte[] buf = new byte[TEXT];
        int n = NcclProbeNative.ncclprobe_loaded_path(buf, buf.length);
        check(n < 0 ? n : 0, "locating the loaded libnccl.so.2");
        return new String(buf, 0, n, StandardCharsets.UTF_8);
    }

    /** ncclGetVersion's code, e.g. 23007. */
    public static int version() {
        NativeLoader.ensureLoaded();
        int[] v = new int[1];
        check(NcclProbeNative.ncclprobe_get_version(v), "ncclGetVersion");
        return v[0];
    }

    /** Whether the open library exports {@code symbol}: guard every call newer than the oldest NCCL supported. */
    public static boolean hasSymbol(String symbol) {
        NativeLoader.ensureLoaded();
        int rc = NcclProbeNative.ncclprobe_has_symbol(symbol);
        check(rc < 0 ? rc : 0, "looking up " + symbol);
        return rc == 1;
    }

    /**
     * ncclGetUniqueId. Not an exception on failure: a failed bootstrap is a finding the caller reports.
     *
     * @return the status and, on success, the 128 bytes
     */
    public static UniqueId uniqueId() {
        NativeLoader.ensureLoaded();
        byte[] id = new byte[128];
        int rc = NcclProbeNative.ncclprobe_get_unique_id(id, id.length);
        return new UniqueId(rc, rc == 0 ? id : null);
    }

    /** ncclGetLastError(NULL); empty when none or when the library is older than 2.13. */
    public static String lastError() {
        NativeLoader.ensureLoaded();
        byte[] buf = new byte[TEXT];
        int n = NcclProbeNative.ncclprobe_get_last_error(buf, buf.length);
        return n < 0 ? "" : new String(buf, 0, n, StandardCharsets.UTF_8);
    }

    /** ncclGetErrorString(code). */
    public static String errorString(int code) {
        NativeLoader.ensureLoaded();
        byte[] buf = new byte[TEXT];
        int n = NcclProbeNative.ncclprobe_get_error_string(code, buf, buf.length);
        return n < 0 ? "" : new String(buf, 0, n, StandardCharsets.UTF_8);
    }

    /** setenv in the C environment, which NCCL reads once, at its first call. */
    public static void setenv(String name, String value, boolean overwrite) {
        NativeLoader.ensureLoaded();
        check(NcclProbeNative.ncclprobe_setenv(name, value, overwrite ? 1 : 0), "setenv " + name);
    }

    /** The C environment's value (after {@link #setenv} it can differ from the one Java read at start); null when unset. */
    public static String getenv(String name) {
        NativeLoader.ensureLoaded();
        byte[] buf = new byte[TEXT];
        int n = NcclProbeNative.ncclprobe_getenv(name, buf, buf.length);
        return n < 0 ? null : new String(buf, 0, n, StandardCharsets.UTF_8);
    }

    /** Test hook: has the native side return {@code code} and maps it as any other call would. */
    public static NcclResult raise(int code) {
        NativeLoader.ensureLoaded();
        return NcclResult.of(NcclProbeNative.ncclprobe_test_raise(code));
    }

    /** Throws when {@code status} is not success. */
    public static void check(int status, String what) {
        if (status != 0) {
            throw new NcclProbeException(status, what + " failed");
        }
    }

    /** "2.30.7" from 23007 (>= 2.9 encoding) or 2708 (older). */
    public static String versionString(int code) {
        return NcclVersionCode.text(code);
    }

    /** The result of ncclGetUniqueId. */
    public record UniqueId(int status, byte[] bytes) {
        public NcclResult result() {
            return NcclResult.of(status);
        }
    }

    private interface TextCall {
        int call(byte[] buf, int len);
    }

    private static String text(TextCall c) {
        byte[] buf = new byte[TEXT];
        int n = c.call(buf, buf.length);
        return n <= 0 ? "" : new String(buf, 0, n, StandardCharsets.UTF_8);
    }
}
