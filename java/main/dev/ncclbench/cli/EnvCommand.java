package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.env.EnvRules;
import dev.ncclbench.env.Missing;
import dev.ncclbench.env.NativeLibraries;
import dev.ncclbench.env.NativeLibraries.Found;
import dev.ncclbench.env.ProbeChild;
import dev.ncclbench.env.ProbeResult;
import dev.ncclbench.env.ProbeRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/** `ncclbench env`: what was found where (NCCL, CUDA runtime, driver, GPUs), and what is missing. Loads no CUDA. */
@Command(name = "env", mixinStandardHelpOptions = true,
        description = "Show the NCCL, CUDA runtime, NVIDIA driver and GPUs found, where each came from, and what is missing.")
public final class EnvCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print as JSON")
    boolean json;

    @Option(names = "--ignore", paramLabel = "ID", description = "Leave out this rule (repeatable; see ncclbench"
            + " rules): it is no longer listed as missing nor counted for the exit code")
    List<String> ignore = List.of();

    @Override
    public Integer call() throws Exception {
        for (String id : ignore) {
            if (!EnvRules.book().knows(id)) {
                throw NcclbenchException.usage("--ignore " + id + ": no env rule has that id (see ncclbench rules)");
            }
        }
        NativeLibraries.Report libs = NativeLibraries.find();
        ProbeResult probe = libs.nccl().present() ? ProbeRunner.probe(libs.nccl().path()) : null;
        List<Finding> findings = Missing.of(libs, probe, Set.copyOf(ignore));
        List<String> missing = findings.stream().map(Missing::line).toList();
        boolean probeLib = ProbeChild.libraryAvailable();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("nccl", lib(libs.nccl()));
            m.put("ncclVersion", probe == null ? null : probe.versionString());
            m.put("ncclBootstrapInterface", probe == null ? null : probe.bootstrapInterface());
            m.put("probe", probe);
            m.put("cudaRuntime", lib(libs.cudart()));
            m.put("cudaRuntimeVersion", NativeLibraries.versionFromFileName(libs.cudart().path()));
            m.put("driver", lib(libs.driver()));
            m.put("driverVersion", libs.driverVersion());
            m.put("nvml", lib(libs.nvml()));
            m.put("gpus", libs.gpus());
            m.put("probeLibrary", probeLib);
            m.put("javacppCache", ProbeChild.javacppCache());
            m.put("missing", missing);
            m.put("findings", findings);
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(m));
        } else {
            String ver = probe == null || probe.versionString() == null ? "" : probe.versionString() + "  ";
            out.printf("%-14s %s%s%n", "NCCL", ver, libs.nccl().describe());
            if (probe != null) {
                out.printf("%-14s %s%n", "  bootstrap", probe.bootstrapInterface() != null
                        ? probe.bootstrapInterface() + " " + probe.bootstrapAddress() + " (NCCL's choice"
                        + (System.getenv("NCCL_SOCKET_IFNAME") == null ? ", NCCL_SOCKET_IFNAME unset)" : ", NCCL_SOCKET_IFNAME=" + System.getenv("NCCL_SOCKET_IFNAME") + ")")
                        : "none" + (probe.problem() != null ? " (" + probe.problem() + ")" : ""));
            }
            String cv = NativeLibraries.versionFromFileName(libs.cudart().path());
            out.printf("%-14s %s%s%n", "CUDA runtime", cv == null ? "" : cv + "  ", libs.cudart().describe());
            out.printf("%-14s %s%s%n", "NVIDIA driver", libs.driverVersion() == null ? "" : libs.driverVersion() + "  ", libs.driver().describe());
            out.printf("%-14s %s%n", "NVML", libs.nvml().describe());
            out.printf("%-14s %s%n", "GPUs", libs.gpus().isEmpty() ? "none" : String.join("; ", libs.gpus()));
            out.printf("%-14s %s%n", "probe library", probeLib ? "loaded (libjniNcclProbe.so)" : "not available (build with gcc/g++)");
            out.printf("%-14s %s%n", "JavaCPP cache", ProbeChild.javacppCache());
            if (missing.isEmpty()) {
                out.println("Missing: nothing");
            } else {
                out.println("Missing:");
                missing.forEach(s -> out.println("  - " + s));
            }
            out.println("Searched (in order): " + String.join(", ", compact(libs.nccl().searched())));
        }
        out.flush();
        // like probe: something needed is missing, so this machine is not ready (the list above says what)
        return missing.isEmpty() ? 0 : ExitCode.ENVIRONMENT.code;
    }

    private static Map<String, Object> lib(Found f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("library", f.library());
        m.put("path", f.path() == null ? null : f.path().toString());
        m.put("source", f.source());
        return m;
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
