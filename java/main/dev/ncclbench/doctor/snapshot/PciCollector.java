package dev.ncclbench.doctor.snapshot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The PCI side of the rail table, read as NCCL reads it: every NVIDIA GPU that sysfs shows (class 0x0300/0x0302 under
 * /sys/bus/pci/devices) or the driver lists (/proc/driver/nvidia/gpus), every RDMA and network device with a PCI path,
 * and each function on the chain from their root complex down to them (class, vendor and device ids, numa_node, PCIe
 * link); the NUMA nodes; the first processor of /proc/cpuinfo.
 */
final class PciCollector {
    static final String NAME = "pci";
    private static final String DEVICES = "/sys/bus/pci/devices";

    private PciCollector() {
    }

    static PciTopology collect(HostFiles files, List<IbDevice> ib, List<NetLink> links, Nvidia nvidia) {
        Set<String> ends = new LinkedHashSet<>();
        for (String address : files.entries(NAME, DEVICES)) {
            String path = files.linkTarget(DEVICES + "/" + address).orElse(null);
            if (path != null && gpu(files, path)) {
                ends.add(path);
            }
        }
        nvidia.gpus().stream().map(Nvidia.Gpu::pciPath).filter(java.util.Objects::nonNull).forEach(ends::add);
        ib.stream().map(IbDevice::pciPath).filter(java.util.Objects::nonNull).forEach(ends::add);
        links.stream().map(NetLink::pciPath).filter(java.util.Objects::nonNull).forEach(ends::add);
        Map<String, PciFunction> read = new TreeMap<>();
        for (String end : ends) {
            for (String path : PciTopology.chain(end)) {
                String address = path.substring(path.lastIndexOf('/') + 1).toLowerCase(java.util.Locale.ROOT);
                read.computeIfAbsent(address, a -> function(files, a, path));
            }
        }
        List<PciFunction> functions = new ArrayList<>(read.values());
        functions.removeIf(PciCollector::empty); // a capture from before the rail table: the path says all there is
        functions.sort(Comparator.comparing(PciFunction::address));
        return new PciTopology(cpu(files), numaNodes(files), functions);
    }

    private static boolean empty(PciFunction f) {
        return f.pciClass() == null && f.vendor() == null && f.numaNode() == null && f.maxLinkSpeed() == null;
    }

    private static boolean gpu(HostFiles files, String path) {
        String vendor = files.read(NAME, path + "/vendor").orElse("");
        String cls = files.read(NAME, path + "/class").orElse("");
        return PciFunction.NVIDIA.equalsIgnoreCase(vendor) && (cls.startsWith("0x0302") || cls.startsWith("0x0300"));
    }

    private static PciFunction function(HostFiles files, String address, String path) {
        return new PciFunction(address, path, attr(files, path, "class"), attr(files, path, "vendor"),
                attr(files, path, "device"), attr(files, path, "subsystem_vendor"), attr(files, path, "subsystem_device"),
                integer(attr(files, path, "numa_node")), attr(files, path, "max_link_speed"),
                integer(attr(files, path, "max_link_width")), attr(files, path, "current_link_speed"),
                integer(attr(files, path, "current_link_width")),
                files.linkName(path + "/physfn").filter(PciTopology::isAddress).orElse(null));
    }

    private static String attr(HostFiles files, String path, String name) {
        return files.read(NAME, path + "/" + name).filter(s -> !s.isEmpty()).orElse(null);
    }

    private static Integer integer(String s) {
        return NetCollector.hex(s);
    }

    /** node0, node1 under /sys/devices/system/node. */
    private static List<Integer> numaNodes(HostFiles files) {
        List<Integer> out = new ArrayList<>();
        for (String n : files.list(NAME, "/sys/devices/system/node")) {
            if (n.matches("node\\d+")) {
                out.add(Integer.parseInt(n.substring(4)));
            }
        }
        out.sort(null);
        return out;
    }

    /** vendor_id, cpu family and model of the first processor; arch from which of them /proc/cpuinfo has. */
    private static PciTopology.Cpu cpu(HostFiles files) {
        String vendor = null;
        Integer family = null;
        Integer model = null;
        boolean arm = false;
        for (String line : files.read(NAME, "/proc/cpuinfo").orElse("").split("\n")) {
            if (line.isBlank() && (vendor != null || arm)) {
                break;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            switch (key) {
                case "vendor_id" -> vendor = value;
                case "cpu family" -> family = integer(value);
                case "model" -> model = integer(value);
                case "CPU implementer" -> arm = true;
                default -> {
                }
            }
        }
        String arch = vendor != null ? "x86_64" : arm ? "aarch64" : null;
        return new PciTopology.Cpu(arch, vendor, family, model);
    }
}
