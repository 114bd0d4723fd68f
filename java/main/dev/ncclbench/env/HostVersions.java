package dev.ncclbench.env;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The versions a run records, each as a field of its own, so that a driver upgrade reads "driver 580.95.05 ->
 * 580.159.04" and the same NCCL loaded from another folder is not a changed NCCL. Read from files only (no CUDA is
 * loaded here): the NCCL probe's answer, library file names, /proc and /sys.
 */
public final class HostVersions {
    /** NCCL's version ("2.28.9"), from ncclGetVersion through the probe or the library's file name. */
    public static final String NCCL = "nccl";
    /** Where libnccl.so.2 was loaded from, and how it was found: a fact apart from its version. */
    public static final String NCCL_LIBRARY = "nccl_library";
    /** The CUDA runtime's version from libcudart's file name ("13.0.96"). */
    public static final String CUDA_RUNTIME = "cuda_runtime";
    public static final String CUDA_RUNTIME_LIBRARY = "cuda_runtime_library";
    /** The CUDA version the driver supports (cudaDriverGetVersion: "13.0"); only a backend that loaded CUDA knows it. */
    public static final String CUDA_DRIVER_API = "cuda_driver_api";
    /** The CUDA runtime's own answer (cudaRuntimeGetVersion: "13.0"), where a backend loaded it. */
    public static final String CUDA_RUNTIME_API = "cuda_runtime_api";
    /** NVML's maximum memory clock of the first GPU, MHz: with the bus width, the GPU's copy limit. */
    public static final String GPU_MEMORY_CLOCK_MHZ = "gpu_memory_clock_mhz";
    public static final String GPU_MEMORY_BUS_WIDTH_BITS = "gpu_memory_bus_width_bits";
    /** The NVIDIA kernel driver ("580.159.04"). */
    public static final String DRIVER = "driver";
    /** Mellanox OFED's mlx5_core version, when MLNX_OFED is installed. */
    public static final String OFED = "ofed";
    /** rdma-core (inbox verbs), from libibverbs' file name ("libibverbs.so.1.14.44.0" is rdma-core 44.0). */
    public static final String RDMA_CORE = "rdma_core";
    public static final String KERNEL = "kernel";
    public static final String GPU_MODEL = "gpu_model";
    public static final String GPU_COUNT = "gpu_count";

    private static final List<String> LIB_DIRS = List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
            "/usr/lib64", "/usr/lib", "/lib/x86_64-linux-gnu", "/lib64");
    /** The sentence older results kept under "nccl": "NCCL 2.28.9 at PATH (from SRC); CUDA runtime: ...; NVIDIA driver: ...". */
    private static final Pattern OLD_SENTENCE = Pattern.compile(
            "^NCCL(?: ([0-9][0-9.]*))? at (.*?)(?:; CUDA runtime: (.*?))?(?:; NVIDIA driver: (.*))?$");

    private HostVersions() {
    }

    /** What every run records of its host, whatever the backend: driver, OFED, rdma-core, kernel, GPUs. */
    public static Map<String, String> host(NativeLibraries.Report libs) {
        Map<String, String> v = new TreeMap<>();
        String driver = libs.driverVersion();
        put(v, DRIVER, driver != null ? driver : fullVersion(NativeLibraries.versionFromFileName(libs.driver().path())));
        put(v, OFED, read("/sys/module/mlx5_core/version"));
        put(v, RDMA_CORE, rdmaCore());
        put(v, KERNEL, read("/proc/sys/kernel/osrelease"));
        List<String> gpus = libs.gpus();
        if (!gpus.isEmpty()) {
            // "0000:18:00.0 NVIDIA H200": the model after the bus id; several models are listed sorted
            put(v, GPU_MODEL, String.join(", ", gpus.stream().map(g -> g.contains(" ") ? g.substring(g.indexOf(' ') + 1) : g)
                    .distinct().sorted().toList()));
            put(v, GPU_COUNT, String.valueOf(gpus.size()));
        }
        return v;
    }

    /**
     * The libraries a GPU backend loaded: NCCL and the CUDA runtime, each version apart from where it came from.
     *
     * @param ncclVersion NCCL's own answer (ncclGetVersion), or null to read it from the library's file name
     */
    public static Map<String, String> libraries(NativeLibraries.Report libs, String ncclVersion) {
        Map<String, String> v = new TreeMap<>();
        String nccl = ncclVersion != null ? ncclVersion : fullVersion(NativeLibraries.versionFromFileName(libs.nccl().path()));
        put(v, NCCL, nccl);
        if (libs.nccl().present()) {
            put(v, NCCL_LIBRARY, libs.nccl().describe());
        }
        put(v, CUDA_RUNTIME, NativeLibraries.versionFromFileName(libs.cudart().path()));
        if (libs.cudart().present()) {
            put(v, CUDA_RUNTIME_LIBRARY, libs.cudart().describe());
        }
        return v;
    }

    /**
     * A result's versions with an older file's sentence under "nccl" split into its fields, so that a result written
     * before the fields existed still loads, and its NCCL compares by version, not by the folder it came from.
     */
    public static Map<String, String> normalized(Map<String, String> versions) {
        if (versions == null) {
            return Map.of();
        }
        String nccl = versions.get(NCCL);
        if (nccl == null || !nccl.startsWith("NCCL")) {
            return versions;
        }
        Map<String, String> v = new TreeMap<>(versions);
        Matcher m = OLD_SENTENCE.matcher(nccl);
        if (!m.matches()) {
            return versions;
        }
        v.remove(NCCL);
        put(v, NCCL, m.group(1));
        v.putIfAbsent(NCCL_LIBRARY, m.group(2));
        if (m.group(3) != null) {
            v.putIfAbsent(CUDA_RUNTIME_LIBRARY, m.group(3));
        }
        if (m.group(4) != null) {
            v.putIfAbsent("driver_library", m.group(4));
        }
        return v;
    }

    /** "580.159.04" from a driver library's suffix; a bare major ("1" of libcuda.so.1) says nothing. */
    private static String fullVersion(String v) {
        return v != null && v.indexOf('.') > 0 ? v : null;
    }

    private static String rdmaCore() {
        for (String dir : LIB_DIRS) {
            Path lib = Path.of(dir, "libibverbs.so.1");
            if (Files.exists(lib)) {
                String v = NativeLibraries.versionFromFileName(lib); // "1.14.44.0"
                if (v != null) {
                    String[] p = v.split("\\.");
                    return p.length >= 4 ? p[2] + "." + p[3] : v;
                }
            }
        }
        return null;
    }

    private static String read(String file) {
        try {
            String s = Files.readString(Path.of(file)).strip();
            return s.isEmpty() ? null : s;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static void put(Map<String, String> v, String k, String value) {
        if (value != null && !value.isBlank()) {
            v.put(k, value);
        }
    }
}
