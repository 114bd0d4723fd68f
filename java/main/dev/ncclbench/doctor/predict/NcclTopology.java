package dev.ncclbench.doctor.predict;

import dev.ncclbench.doctor.snapshot.PciFunction;
import dev.ncclbench.doctor.snapshot.PciTopology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NCCL's picture of one host's PCI tree, rebuilt from sysfs paths the way NCCL 2.30 builds it (src/graph/xml.cc
 * ncclTopoGetXmlFromSys, topo.cc, paths.cc), so that the distance between a GPU and a NIC is the one NCCL computes:
 * <ul>
 * <li>a device hangs from the function two levels above it (a switch's downstream port is skipped, its upstream port
 *     is the node), or from the CPU of its NUMA node when a root complex ("pci0000:15") comes first;</li>
 * <li>a Broadcom PEX Gen4/Gen5 switch that presents itself as two levels is flattened into one
 *     (ncclTopoFlattenBcmSwitches): a GPU and a NIC under the same physical switch are PIX;</li>
 * <li>PIX: both hang from the same switch; PXB: they meet at a switch higher up; PHB: they meet at their CPU; SYS:
 *     their CPUs (NUMA nodes) differ, the path crosses the link between sockets.</li>
 * </ul>
 * A path's bandwidth is its narrowest link: each PCIe link at NCCL's width x lane rate / 80 GB/s (max_link_width and
 * max_link_speed, the lower of the device's and its port's; an unknown link counts as unlimited), the link between
 * sockets at NCCL's figure for the CPU. NCCL reads a GPU's own link from NVML as it runs at that moment; the maximum,
 * used here, is what it runs at under load. A device whose path is not PCI (virtio) hangs from the first CPU, as in
 * NCCL's ncclTopoFillNet.
 */
public final class NcclTopology {
    static final double UNLIMITED = Double.MAX_VALUE;
    private static final Pattern GTS = Pattern.compile("^\\s*([0-9.]+)\\s*GT/s");

    private final PciTopology pci;
    private final int firstCpu;
    /** Switch key ("pci:0000:16:00.0") to the key it hangs from ("pci:..." or "cpu:0"), after flattening. */
    private final Map<String, String> parent = new HashMap<>();
    /** Switches flattened into the one above them. */
    private final Map<String, String> absorbed = new HashMap<>();

    private NcclTopology(PciTopology pci, int firstCpu) {
        this.pci = pci;
        this.firstCpu = firstCpu;
    }

    /**
     * @param endpoints the GPU and NIC paths the table asks about: the switches above them are what gets flattened
     * @param firstCpu  the NUMA node of the CPU that non-PCI devices hang from (NCCL: the first CPU it created)
     */
    public static NcclTopology of(PciTopology pci, List<String> endpoints, int firstCpu) {
        NcclTopology t = new NcclTopology(pci, firstCpu);
        for (String e : endpoints) {
            List<String> chain = t.rawChain(e);
            for (int i = 0; i + 1 < chain.size(); i++) {
                t.parent.putIfAbsent(chain.get(i), chain.get(i + 1));
            }
        }
        t.flattenBroadcomSwitches();
        return t;
    }

    /** How far apart two devices are, from their /sys/devices paths; SYS when either is unknown. */
    public PathType path(String a, String b) {
        if (a == null || b == null) {
            return PathType.SYS;
        }
        if (a.equals(b)) {
            return PathType.LOC;
        }
        List<String> ua = upward(a);
        List<String> ub = upward(b);
        if (ua.get(0).equals(ub.get(0)) && ua.get(0).startsWith("pci:")) {
            return PathType.PIX;
        }
        for (String n : ua) {
            if (n.startsWith("pci:") && ub.contains(n)) {
                return PathType.PXB;
            }
        }
        return last(ua).equals(last(ub)) ? PathType.PHB : PathType.SYS;
    }

    /** The NUMA node of the CPU a device hangs from (-1 when the kernel does not say). */
    public int cpu(String path) {
        return path == null ? firstCpu : Integer.parseInt(last(upward(path)).substring(4));
    }

    /**
     * The narrowest link between two devices in GB/s ({@link #UNLIMITED} when none is known); the link between
     * sockets counts {@code interCpuGBps} when the path crosses it.
     */
    public double bandwidth(String a, String b, double interCpuGBps) {
        if (a == null || b == null) {
            return UNLIMITED;
        }
        List<String> ua = upward(a);
        List<String> ub = upward(b);
        String meet = ua.stream().filter(ub::contains).findFirst().orElse(null);
        double bw = Math.min(linksBelow(a, meet), linksBelow(b, meet));
        return meet == null ? Math.min(bw, interCpuGBps) : bw;
    }

    /** The device's own link and those of the switches above it, up to (not including) {@code meet}. */
    private double linksBelow(String path, String meet) {
        double bw = uplink(pci.at(path).orElse(null));
        for (String raw : rawChain(path)) {
            String n = resolve(raw);
            if (n.equals(meet) || n.startsWith("cpu:")) {
                break;
            }
            if (!absorbed.containsKey(raw)) { // a flattened switch's own uplink is gone
                bw = Math.min(bw, uplink(pci.function(raw.substring(4)).orElse(null)));
            }
        }
        return bw;
    }

    /** The switches a device hangs from, flattened, then its CPU ("cpu:N"). */
    private List<String> upward(String path) {
        List<String> out = new ArrayList<>();
        for (String raw : rawChain(path)) {
            String n = resolve(raw);
            if (out.isEmpty() || !last(out).equals(n)) {
                out.add(n);
            }
        }
        return out;
    }

    /** NCCL's walk up from a device, before flattening: each switch it meets, then the CPU. */
    private List<String> rawChain(String path) {
        List<String> out = new ArrayList<>();
        String[] parts = path.split("/");
        int i = parts.length - 1;
        if (!PciTopology.isAddress(parts[i])) {
            out.add("cpu:" + firstCpu);
            return out;
        }
        while (true) {
            int numa = numa(String.join("/", java.util.Arrays.copyOfRange(parts, 0, i + 1)));
            if (i < 2 || !PciTopology.isAddress(parts[i - 1]) || !PciTopology.isAddress(parts[i - 2])) {
                out.add("cpu:" + numa);
                return out;
            }
            i -= 2;
            out.add("pci:" + parts[i].toLowerCase(java.util.Locale.ROOT));
        }
    }

    private String resolve(String key) {
        String k = key;
        while (absorbed.containsKey(k)) {
            k = absorbed.get(k);
        }
        return k;
    }

    /** The link from a device or switch to the node above it, in GB/s: NCCL's width x lane rate / 80. */
    private double uplink(PciFunction f) {
        if (f == null) {
            return UNLIMITED;
        }
        PciFunction port = pci.at(f.path().substring(0, f.path().lastIndexOf('/'))).orElse(null);
        Double lane = min(laneRate(f.maxLinkSpeed()), port == null ? null : laneRate(port.maxLinkSpeed()));
        Integer width = f.maxLinkWidth();
        if (width != null && port != null && port.maxLinkWidth() != null) {
            width = Math.min(width, port.maxLinkWidth());
        }
        return lane == null || width == null || width == 0 ? UNLIMITED : width * lane / 80.0;
    }

    private static Double min(Double a, Double b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : Double.valueOf(Math.min(a, b));
    }

    /** NCCL's kvDictPciGen: a lane's rate in 100 Mbit/s for "32.0 GT/s PCIe" (kernels before 5.7: "32 GT/s"). */
    static Double laneRate(String speed) {
        if (speed == null) {
            return null;
        }
        Matcher m = GTS.matcher(speed);
        if (!m.find()) {
            return null;
        }
        double gts = Double.parseDouble(m.group(1));
        return gts >= 64 ? 480.0 : gts >= 32 ? 240.0 : gts >= 16 ? 120.0 : gts >= 8 ? 60.0 : gts >= 5 ? 30.0 : 15.0;
    }

    private int numa(String path) {
        Integer n = pci.at(path).map(PciFunction::numaNode).orElse(null);
        return n == null ? -1 : n;
    }

    /**
     * ncclTopoFlattenBcmSwitches: a Broadcom Gen4 or Gen5 switch takes in the switches right below it that carry its
     * id (Gen5: the sub-level's subsystem id); their children hang from it. Top switches first, each once.
     */
    private void flattenBroadcomSwitches() {
        List<String> order = new ArrayList<>(parent.keySet());
        order.sort(Comparator.comparingInt(this::depth).thenComparing(k -> k));
        Set<String> done = new HashSet<>();
        for (String top : order) {
            int gen = bcmGen(top, 0);
            if (absorbed.containsKey(top) || done.contains(top) || gen == 0) {
                continue;
            }
            for (String sub : new ArrayList<>(parent.keySet())) {
                if (top.equals(parent.get(sub)) && bcmGen(sub, 1) == gen) {
                    parent.replaceAll((k, v) -> sub.equals(v) ? top : v);
                    parent.remove(sub);
                    absorbed.put(sub, top);
                }
            }
            done.add(top);
        }
    }

    private int depth(String key) {
        int d = 0;
        for (String n = parent.get(key); n != null && n.startsWith("pci:"); n = parent.get(n)) {
            d++;
        }
        return d;
    }

    /** NCCL's getBcmGen on the 64-bit id vendor:device:subsystem_vendor:subsystem_device. */
    private int bcmGen(String key, int level) {
        PciFunction f = pci.function(key.substring(4)).orElse(null);
        if (f == null) {
            return 0;
        }
        long id = hex(f.vendor()) << 48 | hex(f.device()) << 32 | hex(f.subsystemVendor()) << 16 | hex(f.subsystemDevice());
        long masked = id & 0xfffffffffffff000L;
        if (masked == 0x1000c0101000a000L) {
            return 4;
        }
        return masked == (0x1000c03010000000L | (long) level * 0x1000) ? 5 : 0;
    }

    private static long hex(String s) {
        if (s == null) {
            return 0;
        }
        try {
            return Long.decode(s.strip()) & 0xffff;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * NCCL's bandwidth of the link between two sockets in GB/s (topo.cc ncclTopoGetInterCpuBw; topo.h): Intel by model
     * (Emerald Rapids 40, Sapphire Rapids 22, Skylake to Ice Lake 10, older 6), AMD 16, Arm 6, POWER 32; unknown
     * counts as unlimited (NCCL's LOC_BW).
     */
    public static double interCpuGBps(PciTopology.Cpu cpu) {
        if ("aarch64".equals(cpu.arch())) {
            return 6;
        }
        if ("ppc64le".equals(cpu.arch()) || "ppc64".equals(cpu.arch())) {
            return 32;
        }
        if ("GenuineIntel".equals(cpu.vendor()) && cpu.family() != null && cpu.model() != null) {
            int m = cpu.family() == 6 ? cpu.model() : 0;
            return m >= 0xCF ? 40 : m >= 0x8F ? 22 : m >= 0x55 ? 10 : 6;
        }
        if ("AuthenticAMD".equals(cpu.vendor())) {
            return 16;
        }
        return UNLIMITED;
    }

    private static String last(List<String> l) {
        return l.get(l.size() - 1);
    }
}
