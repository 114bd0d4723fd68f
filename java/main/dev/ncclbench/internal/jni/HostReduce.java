package dev.ncclbench.internal.jni;

import java.nio.ByteBuffer;

/**
 * The socket backend's vectorised reductions (native/reduce/hostreduce.h): {@code dst[i] = a[i] op b[i]} over direct
 * buffers, bit for bit what the Java loops give. Loaded once, on first use; where the library is missing (no C
 * compiler at build time, another platform) or {@code -Dncclbench.reduce=java} says so, {@link #available} is false
 * and the caller reduces in Java. {@link #describe} says which, for a result's header.
 */
public final class HostReduce {
    /** {@code java}: never load the library (to compare the two, or to rule it out). */
    public static final String PROPERTY = "ncclbench.reduce";

    // the codes of hostreduce.h (ReducerTest checks each against a known result)
    public static final int FLOAT = 0;
    public static final int DOUBLE = 1;
    public static final int INT32 = 2;
    public static final int INT64 = 3;
    public static final int SUM = 0;
    public static final int PROD = 1;
    public static final int MAX = 2;
    public static final int MIN = 3;

    private static final Object LOCK = new Object();
    private static volatile Boolean loaded;
    private static String why = "";
    private static boolean avx2;

    private HostReduce() {
    }

    /** Whether the library is loaded (loading it the first time); never throws. */
    public static boolean available() {
        Boolean l = loaded;
        if (l != null) {
            return l;
        }
        synchronized (LOCK) {
            if (loaded == null) {
                loaded = load();
            }
            return loaded;
        }
    }

    private static boolean load() {
        if ("java".equals(System.getProperty(PROPERTY))) {
            why = "-D" + PROPERTY + "=java";
            return false;
        }
        try {
            JavaCppCache.configure();
            org.bytedeco.javacpp.Loader.load(HostReduceNative.class);
            int api = HostReduceNative.ncclbench_hostreduce_api_version();
            if (api != 1) {
                why = "libjniHostReduce.so has API " + api + ", this build expects 1: rebuild with mvn package";
                return false;
            }
            avx2 = HostReduceNative.ncclbench_hostreduce_avx2() == 1;
            return true;
        } catch (Throwable t) {
            why = "libjniHostReduce.so is not available (" + t.getMessage() + "); mvn package builds it where gcc and g++ are";
            return false;
        }
    }

    /**
     * {@code count} elements at byte offsets of buffers at position 0 (see {@link HostReduceNative}); false when the
     * library leaves this type and op to the caller (float and double max and min).
     */
    public static boolean reduce(int type, int op, ByteBuffer dst, long dstOff, ByteBuffer a, long aOff, ByteBuffer b,
                                 long bOff, long count) {
        return HostReduceNative.ncclbench_hostreduce(type, op, dst, dstOff, a, aOff, b, bOff, count) == 0;
    }

    /** For a header: which reduction runs. */
    public static String describe() {
        return available() ? "native, vectorised" + (avx2 ? " with AVX2" : "") + " (libjniHostReduce; -D" + PROPERTY
                + "=java for the Java loops)" : "Java loops (" + why + ")";
    }
}
