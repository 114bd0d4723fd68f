package dev.ncclbench.doctor.snapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The NVIDIA kernel driver from /proc/driver/nvidia (no CUDA loaded), and peer memory the way NCCL looks for it:
 * /sys/kernel/mm/memory_peers/nv_mem/version (nv_peer_mem) and /sys/module/nvidia_peermem/version.
 */
final class NvidiaCollector {
    static final String NAME = "nvidia";

    private NvidiaCollector() {
    }

    static Nvidia collect(HostFiles files) {
        Optional<String> version = files.read(NAME, "/proc/driver/nvidia/version");
        String driver = null;
        Boolean open = null;
        if (version.isPresent()) {
            String v = version.get();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("Kernel Module\\s+(?:for \\S+\\s+)?([0-9.]+)").matcher(v);
            driver = m.find() ? m.group(1) : v.lines().findFirst().orElse(v);
            open = v.contains("Open Kernel Module");
        }
        String peer = null;
        String evidence;
        if (files.exists("/sys/module/nvidia_peermem/version") || files.isDirectory("/sys/module/nvidia_peermem")) {
            peer = "nvidia_peermem";
            evidence = "/sys/module/nvidia_peermem";
        } else if (files.exists("/sys/kernel/mm/memory_peers/nv_mem/version")) {
            peer = "nv_peer_mem";
            evidence = "/sys/kernel/mm/memory_peers/nv_mem/version";
        } else {
            evidence = "neither /sys/module/nvidia_peermem/version nor /sys/kernel/mm/memory_peers/nv_mem/version exists";
        }
        List<Nvidia.Gpu> gpus = new ArrayList<>();
        for (String bus : files.list(NAME, "/proc/driver/nvidia/gpus")) {
            String model = "GPU";
            for (String line : files.read(NAME, "/proc/driver/nvidia/gpus/" + bus + "/information").orElse("").split("\n")) {
                if (line.startsWith("Model:")) {
                    model = line.substring(6).strip();
                }
            }
            String path = files.linkTarget("/sys/bus/pci/devices/" + bus.toLowerCase(java.util.Locale.ROOT)).orElse(null);
            gpus.add(new Nvidia.Gpu(bus, model, path));
        }
        return new Nvidia(driver, open, peer, evidence, gpus);
    }
}
