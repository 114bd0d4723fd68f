package dev.ncclbench.env;

import dev.ncclbench.output.Json;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.finding.Finding;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What `ncclbench env` found, as text or JSON.
 *
 * @param probe           NCCL's own answer (version, bootstrap interface), or null when no NCCL was found
 * @param probeLibrary    whether the probe's JNI library loaded
 * @param socketIfname    NCCL_SOCKET_IFNAME, or null when unset
 */
public record EnvReport(NativeLibraries.Report libs, ProbeResult probe, List<Finding> findings, boolean probeLibrary,
                        String javacppCache, String socketIfname) {
    public static final String KIND = "ncclbench.env";
    /** 1: the first version with an envelope; keys were camelCase before (ncclVersion, cudaRuntime, ...). */
    public static final int SCHEMA_VERSION = 1;

    public EnvReport {
        findings = List.copyOf(findings);
    }

    /**
     * Finds the libraries, asks NCCL in a child process when it is there, and lists what is missing, less the
     * ENV-* rules ignored. Loads no CUDA.
     */
    public static EnvReport collect(Host host, Set<String> ignored) {
        NativeLibraries.Report libs = host.libraries();
        ProbeResult probe = libs.nccl().present() ? ProbeRunner.probe(libs.nccl().path(), host) : null;
        String socketIfname = host.get(Variable.NCCL_SOCKET_IFNAME);
        return new EnvReport(libs, probe, Missing.of(libs, probe, socketIfname, ignored), ProbeChild.libraryAvailable(),
                ProbeChild.javacppCache(), socketIfname);
    }

    /** One line per thing missing. */
    public List<String> missing() {
        return findings.stream().map(Missing::line).toList();
    }

    /** `env --json`: what was found, each library as {@link Lib}, NCCL's answer in full under "probe". */
    @JsonPropertyOrder({"kind", "schema_version", "nccl", "nccl_version", "nccl_bootstrap_interface", "probe",
            "cuda_runtime", "cuda_runtime_version", "driver", "driver_version", "nvml", "gpus", "probe_library",
            "javacpp_cache", "missing", "findings"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Document(String kind, int schemaVersion, Lib nccl, String ncclVersion, String ncclBootstrapInterface,
                           ProbeResult probe, Lib cudaRuntime, String cudaRuntimeVersion, Lib driver,
                           String driverVersion, Lib nvml, List<String> gpus, boolean probeLibrary,
                           String javacppCache, List<String> missing, List<Finding> findings) {
    }

    /** One library: the name asked for, the file found (null: none) and what pointed there. */
    @JsonPropertyOrder({"library", "path", "source"})
    public record Lib(String library, String path, String source) {
        static Lib of(NativeLibraries.Found f) {
            return new Lib(f.library(), f.path() == null ? null : f.path().toString(), f.source());
        }
    }

    public Document document() {
        return new Document(KIND, SCHEMA_VERSION, Lib.of(libs.nccl()), probe == null ? null : probe.versionString(),
                probe == null ? null : probe.bootstrapInterface(), probe, Lib.of(libs.cudart()),
                NativeLibraries.versionFromFileName(libs.cudart().path()), Lib.of(libs.driver()), libs.driverVersion(),
                Lib.of(libs.nvml()), libs.gpus(), probeLibrary, javacppCache, missing(), findings);
    }

    public String json() {
        return Json.prettyText(document());
    }

    public void write(PrintWriter out) {
        List<String> missing = missing();
        String ver = probe == null || probe.versionString() == null ? "" : probe.versionString() + "  ";
        out.printf("%-14s %s%s%n", "NCCL", ver, libs.nccl().describe());
        if (probe != null) {
            out.printf("%-14s %s%n", "  bootstrap", probe.bootstrapInterface() != null
                    ? probe.bootstrapInterface() + " " + probe.bootstrapAddress() + " (NCCL's choice"
                    + (socketIfname == null ? ", NCCL_SOCKET_IFNAME unset)" : ", NCCL_SOCKET_IFNAME=" + socketIfname + ")")
                    : "none" + (probe.problem() != null ? " (" + probe.problem() + ")" : ""));
        }
        String cv = NativeLibraries.versionFromFileName(libs.cudart().path());
        out.printf("%-14s %s%s%n", "CUDA runtime", cv == null ? "" : cv + "  ", libs.cudart().describe());
        out.printf("%-14s %s%s%n", "NVIDIA driver", libs.driverVersion() == null ? "" : libs.driverVersion() + "  ", libs.driver().describe());
        out.printf("%-14s %s%n", "NVML", libs.nvml().describe());
        out.printf("%-14s %s%n", "GPUs", libs.gpus().isEmpty() ? "none" : String.join("; ", libs.gpus()));
        out.printf("%-14s %s%n", "probe library", probeLibrary ? "loaded (libjniNcclProbe.so)" : "not available (build with gcc/g++)");
        out.printf("%-14s %s%n", "JavaCPP cache", javacppCache);
        if (missing.isEmpty()) {
            out.println("Missing: nothing");
        } else {
            out.println("Missing:");
            missing.forEach(s -> out.println("  - " + s));
        }
        out.println("Searched (in order): " + String.join(", ", compact(libs.nccl().searched())));
    }

    private static List<String> compact(List<String> searched) {
        List<String> out = new ArrayList<>();
        for (String s : searched) {
            String src = s.substring(0, s.lastIndexOf(' '));
            if (!out.contains(src)) {
                out.add(src);
            }
        }
        return out;
    }
}
