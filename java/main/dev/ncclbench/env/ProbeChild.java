package dev.ncclbench.env;

import dev.ncclbench.internal.jni.JavaCppCache;
import dev.ncclbench.internal.jni.NativeLoader;
import dev.ncclbench.internal.jni.NcclProbe;
import dev.ncclbench.internal.jni.NcclProbeException;
import dev.ncclbench.internal.jni.NcclResult;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.nio.file.Path;

/**
 * The child's side of the NCCL probe ({@link ProbeRunner} starts it): loads NCCL, asks it for its version and a
 * unique id, and answers in the fields {@link ProbeResult} reads. Keeps the JNI boundary out of the CLI.
 */
public final class ProbeChild {
    private ProbeChild() {
    }

    /**
     * The child's answer, one JSON line on its stdout; a field not reached is left out (its camelCase keys are the
     * wire between the two processes, read by {@link ProbeRunner#parse}).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"library", "loaded", "dlError", "loadedPath", "version", "uniqueIdStatus", "errorString",
            "lastError", "problem"})
    public record Answer(String library, Boolean loaded, String dlError, String loadedPath, Integer version,
                         Integer uniqueIdStatus, String errorString, String lastError, String problem) {
        static Answer notLoaded(String library, String dlError) {
            return new Answer(library, false, dlError, null, null, null, null, null, null);
        }
    }

    /** @param lib libnccl.so.2 to load, or null for the loader's search path */
    public static Answer run(Path lib) {
        String library = lib == null ? "libnccl.so.2" : lib.toString();
        boolean loaded = false;
        String loadedPath = null;
        Integer version = null;
        try {
            try {
                NcclProbe.open(lib);
            } catch (NcclProbeException e) {
                if (e.result() != NcclResult.PROBE_NOT_LOADED || e.getCause() != null) {
                    throw e;
                }
                return Answer.notLoaded(library, e.getMessage());
            }
            loaded = true;
            loadedPath = NcclProbe.loadedPath();
            version = NcclProbe.version();
            NcclProbe.UniqueId id = NcclProbe.uniqueId();
            return new Answer(library, true, null, loadedPath, version, id.status(),
                    NcclProbe.errorString(id.status()), NcclProbe.lastError(), null);
        } catch (NcclProbeException e) {
            return new Answer(library, loaded ? true : null, null, loadedPath, version, null, null, null,
                    e.getMessage());
        }
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
