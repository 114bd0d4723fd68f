package dev.ncclbench.doctor.snapshot;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.Host;
import dev.ncclbench.env.NativeLibraries;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Collects one {@link HostSnapshot}. Each collector runs on its own: one that throws becomes a problem in the
 * snapshot (and so a finding), the others still run.
 */
public final class HostCollector {
    private HostCollector() {
    }

    /**
     * This host, judged with {@code host}'s environment (NCCL_ variables, HOME, KUBERNETES_*) and the libraries found
     * from it.
     */
    public static HostSnapshot live(Host host) {
        return collect(HostFiles.live(), host);
    }

    /** A tree captured by scripts/capture-host.sh; not one is exit 2 with one line. */
    public static HostSnapshot capture(Path root) {
        if (!Files.isDirectory(root)) {
            throw NcclbenchException.usage("--captured " + root + " is not a folder");
        }
        if (!Files.isDirectory(root.resolve("sys/class/net"))) {
            throw NcclbenchException.usage("corrupt capture: " + root + " has no sys/class/net (make one with"
                    + " scripts/capture-host.sh)");
        }
        return collect(HostFiles.capture(root), Host.of(Map.of()));
    }

    /** @param live the host judged live; a capture's environment is its own saved file, never this process's */
    static HostSnapshot collect(HostFiles files, Host live) {
        Map<String, String> raw = SystemCollector.rawEnv(files, live.variables());
        List<NetLink> links = guard(files, NetCollector.NAME, () -> NetCollector.collect(files), List.of());
        List<IbDevice> ib = guard(files, RdmaCollector.NAME, () -> RdmaCollector.devices(files), List.of());
        List<String> dev = guard(files, RdmaCollector.NAME, () -> RdmaCollector.devNodes(files), null);
        Nvidia nvidia = guard(files, NvidiaCollector.NAME, () -> NvidiaCollector.collect(files), Nvidia.NONE);
        PciTopology pci = guard(files, PciCollector.NAME, () -> PciCollector.collect(files, ib, links, nvidia),
                PciTopology.NONE);
        List<AcsBridge> acs = guard(files, AcsCollector.NAME, () -> AcsCollector.collect(files), null);
        Versions versions = guard(files, "versions", () -> versions(files, live), Versions.NONE);
        String source = files.isLive() ? "live" : "capture " + files.root();
        return HostSnapshot.builder().hostname(SystemCollector.hostname(files)).source(source)
                .kernel(SystemCollector.kernel(files)).interfaces(links).ibDevices(ib).devInfiniband(dev)
                .memlockBytes(SystemCollector.memlock(files)).capIpcLock(SystemCollector.capIpcLock(files))
                .shmBytes(SystemCollector.shm(files)).nvidia(nvidia).pci(pci).acs(acs)
                .container(SystemCollector.container(files, raw)).env(SystemCollector.ncclEnv(raw))
                .confFiles(SystemCollector.confFiles(files, raw)).versions(versions).problems(files.problems()).build();
    }

    private static <T> T guard(HostFiles files, String name, Supplier<T> s, T fallback) {
        try {
            return s.get();
        } catch (NcclbenchException e) {
            throw e;
        } catch (RuntimeException e) {
            files.problem(name, "collector", "failed: " + e);
            return fallback;
        }
    }

    /** Live: what `ncclbench env` finds; a capture: its saved versions file (key=value lines). */
    private static Versions versions(HostFiles files, Host live) {
        String ofed = files.read("versions", "/sys/module/mlx5_core/version").orElse(null);
        if (files.isLive()) {
            NativeLibraries.Report r = live.libraries();
            Path nccl = r.nccl().path();
            Path cudart = r.cudart().path();
            return new Versions(ncclFromName(nccl), nccl == null ? null : nccl.toString(),
                    NativeLibraries.versionFromFileName(cudart), cudart == null ? null : cudart.toString(), ofed,
                    verbs(files));
        }
        Map<String, String> kv = new LinkedHashMap<>();
        for (String line : files.read("versions", "/" + HostFiles.EXTRAS + "/versions").orElse("").split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && eq < line.length() - 1) {
                kv.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        return new Versions(kv.get("nccl"), kv.get("nccl_library"), kv.get("cuda_runtime"), kv.get("cuda_runtime_library"),
                kv.getOrDefault("ofed", ofed), kv.containsKey("verbs") ? kv.get("verbs") : verbs(files));
    }

    /** libnccl.so.2 -> libnccl.so.2.30.7 gives "2.30.7"; a bare libnccl.so.2 gives null (the probe knows). */
    private static String ncclFromName(Path lib) {
        String v = NativeLibraries.versionFromFileName(lib);
        return v != null && v.chars().filter(c -> c == '.').count() >= 2 ? v : null;
    }

    private static String verbs(HostFiles files) {
        for (String dir : List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
                "/lib/x86_64-linux-gnu", "/lib64")) {
            if (files.exists(dir + "/libibverbs.so.1")) {
                return dir + "/libibverbs.so.1";
            }
        }
        return null;
    }
}
