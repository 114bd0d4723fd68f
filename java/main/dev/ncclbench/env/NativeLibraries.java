package dev.ncclbench.env;

import dev.ncclbench.InstallDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the native libraries the nccl backend needs, without loading any of them: libnccl.so.2,
 * libcudart.so.13, the driver's libcuda.so.1 and libnvidia-ml.so.1. Each is looked for in a fixed order of
 * places, and the result says which place it came from, so `ncclbench env` can tell the user.
 *
 * <p>Order: -Dncclbench.nccl.home, NCCL_HOME, LD_LIBRARY_PATH, ldconfig -p, CUDA_HOME, /usr/local/cuda,
 * the system's library folders (and /usr/local/nvidia, where GPU containers mount the driver), the
 * site-packages of Python (nvidia/nccl/lib and nvidia/cuda_runtime/lib, where pip's nvidia-nccl-cu12/cu13
 * put them for PyTorch), then this project's deps/nccl/lib (scripts/fetch-nccl.sh).
 */
public final class NativeLibraries {
    public static final String NCCL = "libnccl.so.2";
    public static final String CUDART = "libcudart.so.13";
    public static final String DRIVER = "libcuda.so.1";
    public static final String NVML = "libnvidia-ml.so.1";

    private NativeLibraries() {
    }

    /** A folder to look in, and the name of the place it came from. */
    public record Location(Path dir, String source) {
    }

    /**
     * One library: where it is, or null, and where it was looked for.
     *
     * @param path     the file found, or null when missing
     * @param source   which place it came from ("NCCL_HOME", "ldconfig -p", ...), or null
     * @param searched the places looked in, in order
     */
    public record Found(String library, Path path, String source, List<String> searched) {
        public boolean present() {
            return path != null;
        }

        /** "/x/libnccl.so.2 (from NCCL_HOME)" or "not found". */
        public String describe() {
            return path == null ? "not found" : path + " (from " + source + ")";
        }
    }

    /** Everything found, as one immutable snapshot. */
    public record Report(Found nccl, Found cudart, Found driver, Found nvml, String driverVersion, List<String> gpus) {
        public Found get(String library) {
            switch (library) {
                case NCCL: return nccl;
                case CUDART: return cudart;
                case DRIVER: return driver;
                case NVML: return nvml;
                default: throw new IllegalArgumentException(library);
            }
        }
    }

    /**
     * The libraries of this machine as {@code host}'s environment points to them (runs ldconfig and python): what
     * {@link Host#libraries} keeps, once per host.
     */
    static Report find(Host host) {
        return find(locations(host, ldconfig(), sitePackages(host), projectDir()));
    }

    /** Looks for every library in {@code where}, in order. Pure apart from file existence. */
    public static Report find(List<Location> where) {
        return new Report(findOne(NCCL, where), findOne(CUDART, where), findOne(DRIVER, where), findOne(NVML, where),
                driverVersion(), gpus());
    }

    static Found findOne(String library, List<Location> where) {
        List<String> searched = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Location l : where) {
            String label = l.source() + " " + l.dir();
            if (seen.add(label)) {
                searched.add(label);
            }
            Path p = l.dir().resolve(library);
            if (Files.isRegularFile(p)) {
                return new Found(library, p.toAbsolutePath().normalize(), l.source(), List.copyOf(searched));
            }
        }
        return new Found(library, null, null, List.copyOf(searched));
    }

    /**
     * The places to look, in order.
     *
     * @param ldconfig  library name to path, from `ldconfig -p`
     * @param sites     Python site-packages folders
     * @param project   this project's root (for deps/nccl), or null
     */
    public static List<Location> locations(Host host, Map<String, Path> ldconfig, List<Path> sites, Path project) {
        List<Location> out = new ArrayList<>();
        String prop = System.getProperty("ncclbench.nccl.home");
        if (prop != null && !prop.isBlank()) {
            home(out, Path.of(prop), "-Dncclbench.nccl.home");
        }
        String ncclHome = host.get(Variable.NCCL_HOME);
        if (ncclHome != null && !ncclHome.isBlank()) {
            home(out, Path.of(ncclHome), "NCCL_HOME");
        }
        String ld = host.get(Variable.LD_LIBRARY_PATH);
        if (ld != null) {
            for (String d : ld.split(":")) {
                if (!d.isBlank()) {
                    out.add(new Location(Path.of(d), "LD_LIBRARY_PATH"));
                }
            }
        }
        Set<Path> ldDirs = new LinkedHashSet<>();
        for (Path p : ldconfig.values()) {
            if (p.getParent() != null) {
                ldDirs.add(p.getParent());
            }
        }
        ldDirs.forEach(d -> out.add(new Location(d, "ldconfig -p")));
        for (Variable v : List.of(Variable.CUDA_HOME, Variable.CUDA_PATH)) {
            String h = host.get(v);
            if (h != null && !h.isBlank()) {
                home(out, Path.of(h), v.name());
                out.add(new Location(Path.of(h, "targets", "x86_64-linux", "lib"), v.name()));
            }
        }
        home(out, Path.of("/usr/local/cuda"), "/usr/local/cuda");
        for (String d : List.of("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib",
                "/usr/local/nvidia/lib64", "/usr/local/nvidia/lib", "/usr/lib/wsl/lib")) {
            out.add(new Location(Path.of(d), "system library folder"));
        }
        for (Path site : sites) {
            for (String sub : List.of("nccl", "cuda_runtime", "cu13", "cu12")) {
                out.add(new Location(site.resolve("nvidia").resolve(sub).resolve("lib"), "python site-packages (nvidia/" + sub + ")"));
            }
        }
        if (project != null) {
            out.add(new Location(project.resolve("deps").resolve("nccl").resolve("lib"), "project deps/nccl (scripts/fetch-nccl.sh)"));
        }
        return out;
    }

    private static void home(List<Location> out, Path home, String source) {
        out.add(new Location(home.resolve("lib"), source));
        out.add(new Location(home.resolve("lib64"), source));
        out.add(new Location(home, source));
    }

    /** Parses `ldconfig -p`: "\tlibnccl.so.2 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libnccl.so.2". */
    public static Map<String, Path> parseLdconfig(String text) {
        Map<String, Path> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int arrow = line.indexOf("=>");
            if (arrow < 0 || !line.contains("x86-64")) {
                continue;
            }
            String name = line.trim().split("\\s+")[0];
            out.putIfAbsent(name, Path.of(line.substring(arrow + 2).trim()));
        }
        return out;
    }

    static Map<String, Path> ldconfig() {
        for (String exe : List.of("/sbin/ldconfig", "/usr/sbin/ldconfig", "ldconfig")) {
            if (exe.startsWith("/") && !Files.isExecutable(Path.of(exe))) {
                continue;
            }
            String text = run(List.of(exe, "-p"), 5);
            if (text != null) {
                Map<String, Path> all = parseLdconfig(text);
                Map<String, Path> ours = new LinkedHashMap<>();
                for (String lib : List.of(NCCL, CUDART, DRIVER, NVML)) {
                    if (all.containsKey(lib)) {
                        ours.put(lib, all.get(lib));
                    }
                }
                return ours;
            }
        }
        return Map.of();
    }

    /**
     * Python's site-packages: asked of python3 itself (NCCLBENCH_PYTHON, else python3 on the PATH, 5 s at
     * most), plus the usual folders of virtualenvs, conda and the system, found by globbing.
     */
    public static List<Path> sitePackages(Host host) {
        Set<Path> out = new LinkedHashSet<>();
        String py = host.has(Variable.NCCLBENCH_PYTHON) ? host.get(Variable.NCCLBENCH_PYTHON) : "python3";
        String text = run(List.of(py, "-c",
                "import site,sys\nfor p in site.getsitepackages()+[site.getusersitepackages()]: print(p)"), 5);
        if (text != null) {
            for (String line : text.split("\n")) {
                if (!line.isBlank()) {
                    out.add(Path.of(line.trim()));
                }
            }
        }
        List<Path> roots = new ArrayList<>();
        for (Variable v : List.of(Variable.VIRTUAL_ENV, Variable.CONDA_PREFIX)) {
            String p = host.get(v);
            if (p != null && !p.isBlank()) {
                roots.add(Path.of(p, "lib"));
            }
        }
        roots.add(Path.of(System.getProperty("user.home"), ".local", "lib"));
        for (String r : List.of("/usr/lib", "/usr/local/lib", "/opt/conda/lib", "/opt/venv/lib", "/usr/lib64")) {
            roots.add(Path.of(r));
        }
        for (Path root : roots) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(root, "python3*")) {
                for (Path p : ds) {
                    for (String s : List.of("site-packages", "dist-packages")) {
                        if (Files.isDirectory(p.resolve(s))) {
                            out.add(p.resolve(s));
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not there: nothing to add
            }
        }
        return List.copyOf(out);
    }

    /** This project's root (for deps/): {@link InstallDir#checkout}, or null when not run from one. */
    public static Path projectDir() {
        return InstallDir.checkout().orElse(null);
    }

    /** The kernel driver's version from /proc/driver/nvidia/version, or null. */
    static String driverVersion() {
        try {
            String s = Files.readString(Path.of("/proc/driver/nvidia/version"));
            Matcher m = Pattern.compile("Kernel Module\\s+(?:for \\S+\\s+)?([0-9.]+)").matcher(s);
            return m.find() ? m.group(1) : s.lines().findFirst().orElse(null);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** GPUs the kernel driver lists ("0000:18:00.0 NVIDIA H200"), without loading CUDA. */
    static List<String> gpus() {
        List<String> out = new ArrayList<>();
        Path dir = Path.of("/proc/driver/nvidia/gpus");
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path g : ds) {
                String model = "GPU";
                try {
                    for (String line : Files.readAllLines(g.resolve("information"))) {
                        if (line.startsWith("Model:")) {
                            model = line.substring(6).trim();
                        }
                    }
                } catch (IOException e) {
                    // keep "GPU"
                }
                out.add(g.getFileName() + " " + model);
            }
        } catch (IOException e) {
            // none
        }
        out.sort(null);
        return out;
    }

    /** Runs a short command; its stdout, or null when it failed or ran longer than {@code seconds}. */
    static String run(List<String> cmd, int seconds) {
        Path tmp = null;
        try {
            // Output to a file, not a pipe: a hung child must not block us in read().
            tmp = Files.createTempFile("ncclbench-cmd", ".out");
            Process p = new ProcessBuilder(cmd).redirectOutput(tmp.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? Files.readString(tmp, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    // a temp file left behind
                }
            }
        }
    }

    /** "13.0.96" from libcudart.so.13 -> libcudart.so.13.0.96, or null. */
    public static String versionFromFileName(Path lib) {
        if (lib == null) {
            return null;
        }
        try {
            String real = lib.toRealPath().getFileName().toString();
            int i = real.indexOf(".so.");
            return i < 0 ? null : real.substring(i + 4);
        } catch (IOException e) {
            return null;
        }
    }
}
