package dev.ncclbench.internal.jni;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads the probe's JNI library once, on first use, never at class registration. Overridable: the
 * system property {@code ncclbench.probe.jni} names a libjniNcclProbe.so to load instead of the one
 * JavaCPP finds in the jar (or target/classes). JavaCPP's cache folder is made private first, so that a
 * stale cache of another build cannot be picked up.
 */
public final class NativeLoader {
    /** Overrides the JNI library path. */
    public static final String OVERRIDE_PROPERTY = "ncclbench.probe.jni";
    private static final Object LOCK = new Object();
    private static volatile boolean loaded;
    private static Throwable failure;

    private NativeLoader() {
    }

    /** Loads the library or throws {@link NcclProbeException} saying why (the same failure every time). */
    public static void ensureLoaded() {
        if (loaded) {
            return;
        }
        synchronized (LOCK) {
            if (loaded) {
                return;
            }
            if (failure != null) {
                throw new NcclProbeException(message(failure), failure);
            }
            try {
                JavaCppCache.configure();
                String override = System.getProperty(OVERRIDE_PROPERTY);
                if (override != null && !override.isBlank()) {
                    Path p = Path.of(override).toAbsolutePath();
                    if (!Files.isRegularFile(p)) {
                        throw new UnsatisfiedLinkError(OVERRIDE_PROPERTY + "=" + override + " is not a file");
                    }
                    System.load(p.toString());
                } else {
                    org.bytedeco.javacpp.Loader.load(NcclProbeNative.class);
                }
                int api = NcclProbeNative.ncclprobe_api_version();
                if (api != 1) {
                    throw new UnsatisfiedLinkError("probe library API " + api + ", this build expects 1: rebuild with mvn package");
                }
                loaded = true;
            } catch (Throwable t) {
                failure = t;
                throw new NcclProbeException(message(t), t);
            }
        }
    }

    /** Whether the JNI library can be loaded here; never throws. */
    public static boolean available() {
        try {
            ensureLoaded();
            return true;
        } catch (NcclProbeException e) {
            return false;
        }
    }

    private static String message(Throwable t) {
        return "the NCCL probe library (libjniNcclProbe.so) is not available: " + t.getMessage()
                + "; build it with `mvn package` on a machine with gcc and g++ (apt-get install build-essential cmake)";
    }
}
