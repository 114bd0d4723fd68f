package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;
import java.util.Optional;

/**
 * The PCI evidence of the rail table: every GPU, every RDMA and network device with a PCI path, and each bridge
 * between them and their root complex; the NUMA nodes; the CPU model (NCCL's inter-socket bandwidth depends on it).
 *
 * @param cpu       the first processor of /proc/cpuinfo; {@link Cpu#UNKNOWN} when unread
 * @param numaNodes /sys/devices/system/node/node*, empty when the kernel shows none
 * @param functions sorted by address
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record PciTopology(Cpu cpu, List<Integer> numaNodes, List<PciFunction> functions) {
    public static final PciTopology NONE = new PciTopology(Cpu.UNKNOWN, List.of(), List.of());

    public PciTopology {
        cpu = cpu == null ? Cpu.UNKNOWN : cpu;
        numaNodes = numaNodes == null ? List.of() : List.copyOf(numaNodes);
        functions = functions == null ? List.of() : List.copyOf(functions);
    }

    /** The function at this /sys/devices path, if it was read. */
    public Optional<PciFunction> at(String path) {
        return functions.stream().filter(f -> f.path().equals(path)).findFirst();
    }

    /** The function with this address ("0000:18:00.0", any case), if it was read. */
    public Optional<PciFunction> function(String address) {
        return functions.stream().filter(f -> f.address().equalsIgnoreCase(address)).findFirst();
    }

    /** "0000:18:00.0" (domain:bus:device.function), what NCCL's checkBDFFormat accepts; "pci0000:15" is not one. */
    public static boolean isAddress(String name) {
        return name != null && BDF.matcher(name).matches();
    }

    /**
     * The /sys/devices paths of the PCI functions from the root complex down to {@code path}: for
     * ".../pci0000:15/0000:15:01.0/0000:16:00.0/virtio2" the root port, then 0000:16:00.0 (the trailing non-PCI part
     * dropped). Empty when the path is not under a root complex (virtual devices).
     */
    public static List<String> chain(String path) {
        List<String> out = new java.util.ArrayList<>();
        if (path == null) {
            return out;
        }
        int root = path.indexOf("/pci");
        if (root < 0) {
            return out;
        }
        StringBuilder prefix = new StringBuilder(path.substring(0, root));
        for (String part : path.substring(root + 1).split("/")) {
            prefix.append('/').append(part);
            if (isAddress(part)) {
                out.add(prefix.toString());
            } else if (!out.isEmpty()) {
                break; // virtio2, net/eth0: below the last PCI function
            }
        }
        return out;
    }

    private static final java.util.regex.Pattern BDF =
            java.util.regex.Pattern.compile("^[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]$");

    /** The GPUs sysfs shows (NVIDIA, class 0x0300 or 0x0302), by address. */
    @JsonIgnore
    public List<PciFunction> gpus() {
        return functions.stream().filter(PciFunction::gpu).toList();
    }

    /**
     * The processor, as NCCL reads it for the bandwidth between sockets (src/graph/topo.cc, ncclTopoAddCpu).
     *
     * @param arch   "x86_64" or "aarch64"; null unknown
     * @param vendor vendor_id, "GenuineIntel" or "AuthenticAMD"; null on other architectures
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Cpu(String arch, String vendor, Integer family, Integer model) {
        public static final Cpu UNKNOWN = new Cpu(null, null, null, null);
    }
}
