package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ncclbench.internal.jni.NcclProbe;
import dev.ncclbench.internal.jni.NcclProbeException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Hidden: the child process of the NCCL probe (dev.ncclbench.env.ProbeRunner). Loads NCCL, asks it for
 * its version and a unique id, prints one JSON line, and exits: NCCL's state dies with the process.
 */
@Command(name = "probe-child", hidden = true, description = "Internal: one NCCL probe; prints one JSON line.")
public final class ProbeChildCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--lib", paramLabel = "PATH", description = "libnccl.so.2 to load (default: the loader's search path)")
    Path lib;

    @Override
    public Integer call() throws Exception {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("library", lib == null ? "libnccl.so.2" : lib.toString());
        try {
            try {
                NcclProbe.open(lib);
            } catch (NcclProbeException e) {
                if (e.result() != dev.ncclbench.internal.jni.NcclResult.PROBE_NOT_LOADED || e.getCause() != null) {
                    throw e;
                }
                r.put("loaded", false);
                r.put("dlError", e.getMessage());
                print(r);
                return 0;
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
        print(r);
        return 0;
    }

    private void print(Map<String, Object> r) throws Exception {
        spec.commandLine().getOut().println(new ObjectMapper().writeValueAsString(r));
        spec.commandLine().getOut().flush();
    }
}
