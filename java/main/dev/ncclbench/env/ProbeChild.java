package dev.ncclbench.env;

import dev.ncclbench.internal.jni.JavaCppCache;
import dev.ncclbench.internal.jni.NativeLoader;
import dev.ncclbench.internal.jni.NcclProbe;
import dev.ncclbench.internal.jni.NcclProbeException;
import dev.ncclbench.internal.jni.NcclResult;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The child's side of the NCCL probe ({@link ProbeRunner} starts it): loads NCCL, asks it for its version and a
 * unique id, and answers in the fields {@link ProbeResult} reads. Keeps the JNI boundary out of the CLI.
 */
public final class ProbeChild {
    private ProbeChild() {
    }

    /** @param lib libnccl.so.2 to load, or null for the loader's search path */
    public static Map<String, Object> run(Path lib) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("library", lib == null ? "libnccl.so.2" : lib.toString());
        try {
            try {
                NcclProbe.open(lib);
            } catch (NcclProbeException e) {
                if (e.result() != NcclResult.PROBE_NOT_LOADED || e.getCause() != null) {
                    throw e;
                }
                r.put("loaded", false);
                r.put("dlError", e.getMessage());
                return r;
            }
            r.put("loaded", true);
            r.put("loadedPath", NcclProbe.loadedPath());
            r.put("version", NcclProbe.version());
            NcclProbe.UniqueId id = NcclProbe.uniqueId();
            r.put("uniqueIdStatus", id.status());
            r.put("errorString", NcclProbe.errorString(id.status()));
            r.put("lastError", NcclProbe.lastError());
        } catch (NcclProbeException e) {
            r.put("problem", e.getMessage());
        }
        return r;
    }

    /** Whether this build's probe library (libjniNcclProbe.so) loads. */
    public static boolean libraryAvailable() {
        return NativeLoader.available();
    }

    /** Where JavaCPP caches its libraries (configured once per process). */
    public static String javacppCache() {
        return JavaCppCache.configure();
    }
}
