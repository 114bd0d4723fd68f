package dev.ncclbench.internal.jni;

import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Platform;

import java.nio.ByteBuffer;

/**
 * The thin wrapper of native/reduce/hostreduce.h, nothing else; JavaCPP's Builder generates its JNI during the
 * Maven build (native/build.sh). Callers use {@link HostReduce}, never this class. JavaCPP adds a buffer's position
 * to its address: callers pass buffers at position 0 and say where in them with the offsets.
 */
@Platform(include = "hostreduce.h", link = "ncclbenchreduce", library = "jniHostReduce")
public final class HostReduceNative {
    private HostReduceNative() {
    }

    public static native int ncclbench_hostreduce_api_version();

    public static native int ncclbench_hostreduce_avx2();

    public static native int ncclbench_hostreduce(int type, int op, @Cast("char*") ByteBuffer dst, long dstOff,
                                                  @Cast("const char*") ByteBuffer a, long aOff,
                                                  @Cast("const char*") ByteBuffer b, long bOff, long count);
}
