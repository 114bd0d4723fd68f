package dev.ncclbench.env;

import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Rule;
import dev.ncclbench.finding.RuleBook;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * What the nccl backend lacks on this machine, as findings of the shared rule model: one source for the words
 * that `ncclbench env` lists and the nccl backend's readiness gives as its remedy.
 */
public final class Missing {
    public static final String NO_NCCL = "ENV-NO-NCCL";
    public static final String NCCL_UNLOADABLE = "ENV-NCCL-UNLOADABLE";
    public static final String NO_CUDART = "ENV-NO-CUDART";
    public static final String NO_DRIVER = "ENV-NO-DRIVER";
    public static final String NO_GPU = "ENV-NO-GPU";
    public static final String BOOTSTRAP = "ENV-NCCL-BOOTSTRAP";

    private Missing() {
    }

    /**
     * Everything missing but the ignored rule ids, in the book's order (env lists it that way, not worst first).
     *
     * @param socketIfname the host's NCCL_SOCKET_IFNAME, which a failed bootstrap's remedy names (null: unset)
     */
    public static List<Finding> of(NativeLibraries.Report libs, ProbeResult probe, String socketIfname, Set<String> ignored) {
        RuleBook<EnvRules.Machine> book = EnvRules.book();
        List<String> order = book.rules().stream().map(Rule::id).toList();
        List<Finding> out = new ArrayList<>(book.run(new EnvRules.Machine(libs, probe, socketIfname), ignored));
        // a crash (not in the book's list) goes last
        out.sort(Comparator.comparingInt(f -> order.contains(f.ruleId()) ? order.indexOf(f.ruleId()) : order.size()));
        return List.copyOf(out);
    }

    public static Finding noNccl() {
        List<String> remedy = new ArrayList<>(ncclSources());
        remedy.add("on a machine without a GPU use --backend socket");
        return new Finding(NO_NCCL, Severity.ERROR, "NCCL (libnccl.so.2) not found",
                "Searched NCCL_HOME, LD_LIBRARY_PATH, ldconfig, CUDA_HOME, /usr/local/cuda, system folders and python"
                        + " site-packages nvidia/nccl/lib" + (NativeLibraries.projectDir() == null ? "" : ", the checkout's"
                        + " deps/nccl/lib") + ".", List.of(), remedy, References.NCCLBENCH);
    }

    /**
     * Where to get libnccl.so.2, in the order to try: the checkout's scripts/fetch-nccl.sh only from a checkout that
     * has it (the bundle advised it, and carries none).
     */
    public static List<String> ncclSources() {
        return ncclSources(NativeLibraries.projectDir());
    }

    /** @param checkout the checkout this runs from, or null (a bundle, a jar on its own) */
    static List<String> ncclSources(java.nio.file.Path checkout) {
        List<String> out = new ArrayList<>(List.of("pip install nvidia-nccl-cu13 (PyTorch's NCCL)",
                "or set NCCL_HOME to the folder holding lib/libnccl.so.2"));
        java.nio.file.Path fetch = checkout == null ? null : checkout.resolve("scripts").resolve("fetch-nccl.sh");
        if (fetch != null && java.nio.file.Files.isRegularFile(fetch)) {
            out.add("or run " + fetch + " (into the checkout's deps/nccl)");
        }
        return out;
    }

    /** {@link #ncclSources} as one clause: "pip install ..., set NCCL_HOME ... or run ...". */
    public static String ncclSourcesLine() {
        return ncclSourcesLine(NativeLibraries.projectDir());
    }

    static String ncclSourcesLine(java.nio.file.Path checkout) {
        List<String> plain = ncclSources(checkout).stream().map(x -> x.startsWith("or ") ? x.substring(3) : x).toList();
        return String.join(", ", plain.subList(0, plain.size() - 1)) + " or " + plain.get(plain.size() - 1);
    }

    public static Finding unloadable(String path, String dlError) {
        return new Finding(NCCL_UNLOADABLE, Severity.ERROR, "libnccl.so.2 at " + path + " cannot be loaded",
                "dlopen said: " + dlError, List.of(path),
                List.of("install a complete NCCL (pip install nvidia-nccl-cu13) or point NCCL_HOME at one"),
                References.NCCLBENCH);
    }

    public static Finding noCudart() {
        return new Finding(NO_CUDART, Severity.ERROR, "CUDA runtime (libcudart.so.13) not found",
                "The nccl backend needs the CUDA 13 runtime next to NCCL.", List.of(),
                List.of("pip install nvidia-cuda-runtime-cu13", "or set CUDA_HOME to a CUDA 13 toolkit"),
                References.NCCLBENCH);
    }

    public static Finding noDriver() {
        return new Finding(NO_DRIVER, Severity.ERROR, "NVIDIA driver (libcuda.so.1) not found",
                "Without the driver no CUDA call can run; NCCL can still be asked which interface it would bootstrap on.",
                List.of(), List.of("install the NVIDIA driver (in a container: run it with the NVIDIA container"
                        + " toolkit, --gpus all)", "without a GPU use --backend socket (or auto)"), References.NCCLBENCH);
    }

    public static Finding noGpu() {
        return new Finding(NO_GPU, Severity.WARNING, "GPUs: none listed in /proc/driver/nvidia/gpus",
                "No GPU is visible to this process.", List.of(),
                List.of("nvidia-smi   # on the host; in a container: --gpus all"), References.NCCLBENCH);
    }

    public static Finding bootstrap(ProbeResult probe, String remedy) {
        return new Finding(BOOTSTRAP, Severity.ERROR, "NCCL bootstrap: \"" + probe.ncclSentence() + "\" ("
                + probe.result().cName + ")",
                "ncclGetUniqueId failed in a child process: NCCL would die at init on this host.",
                List.of(), List.of(remedy), References.ENV_DOC + "#nccl-socket-ifname");
    }

    /** "title: remedy; remedy", the one-line form `env` prints. */
    public static String line(Finding f) {
        return f.title() + ": " + String.join("; ", f.remedy());
    }
}
