package dev.ncclbench.internal.jni;

import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Platform;

/**
 * The thin wrapper: only the native calls of native/probe/ncclprobe.h, nothing else. JavaCPP's Builder
 * generates and compiles the JNI for it during the Maven build (native/build.sh); {@link NativeLoader}
 * loads it. Callers use {@link NcclProbe}, never this class.
 */
@Platform(include = "ncclprobe.h", link = {"ncclprobe", "dl"}, library = "jniNcclProbe")
public final class NcclProbeNative {
    private NcclProbeNative() {
    }

    public static native int ncclprobe_api_version();

    public static native int ncclprobe_open(String path);

    public static native int ncclprobe_is_open();

    public static native int ncclprobe_dl_error(@Cast("char*") byte[] buf, int len);

    public static native int ncclprobe_loaded_path(@Cast("char*") byte[] buf, int len);

    public static native int ncclprobe_has_symbol(String name);

    public static native int ncclprobe_get_version(int[] version);

    public static native int ncclprobe_get_unique_id(@Cast("unsigned char*") byte[] out, int len);

    public static native int ncclprobe_get_last_error(@Cast("char*") byte[] buf, int len);

    public static native int ncclprobe_get_error_string(int code, @Cast("char*") byte[] buf, int len);

    public static native int ncclprobe_setenv(String name, String value, int overwrite);

    public static native int ncclprobe_getenv(String name, @Cast("char*") byte[] buf, int len);

    public static native int ncclprobe_test_raise(int code);

    public static native void ncclprobe_close();
}
