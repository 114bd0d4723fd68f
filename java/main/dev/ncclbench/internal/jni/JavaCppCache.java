package dev.ncclbench.internal.jni;

import java.nio.file.Path;

/**
 * JavaCPP extracts native libraries into a cache folder (~/.javacpp/cache by default), shared by every
 * JavaCPP program of the user: a stale copy from another version could be loaded. We point it at a
 * folder of our own, per version, before any JavaCPP class loads. A value set by the user wins.
 */
public final class JavaCppCache {
    public static final String PROPERTY = "org.bytedeco.javacpp.cachedir";

    private JavaCppCache() {
    }

    /** Sets the cache folder unless already set; returns the folder in effect. */
    public static synchronized String configure() {
        String current = System.getProperty(PROPERTY);
        if (current != null && !current.isBlank()) {
            return current;
        }
        // the one read of the environment below the command line: this runs lazily, from whichever native loader
        // (NativeLoader, HostReduce, NcclRuntime, the probe child) is first, on any thread, none of them holding the
        // command line's map; its result is a JVM property the later loaders read, so it is decided once either way
        String base = System.getenv("XDG_CACHE_HOME");
        Path root = base != null && !base.isBlank() ? Path.of(base) : Path.of(System.getProperty("user.home"), ".cache");
        String version = NcclProbe.class.getPackage().getImplementationVersion();
        Path dir = root.resolve("ncclbench").resolve("javacpp-" + (version == null ? "dev" : version));
        System.setProperty(PROPERTY, dir.toString());
        return dir.toString();
    }
}
