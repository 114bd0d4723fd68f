package dev.ncclbench.doctor.rules;

import java.util.ArrayList;
import java.util.List;

/**
 * The PCIe distance between two devices from their /sys/devices paths, in NCCL's vocabulary (LOC PIX PXB PHB SYS).
 * An approximation of NCCL's topology search (NCCL_TOPO_DUMP_FILE has the real one): different root complexes are
 * SYS, sharing only the root port is PHB, one shared switch is PIX, more bridges PXB.
 */
enum PciDistance {
    LOC, PIX, PXB, PHB, SYS;

    static PciDistance between(String a, String b) {
        List<String> pa = chain(a);
        List<String> pb = chain(b);
        if (pa.isEmpty() || pb.isEmpty() || !pa.get(0).equals(pb.get(0))) {
            return SYS;
        }
        if (a.equals(b)) {
            return LOC;
        }
        // bridges below the root port, the endpoint dropped
        List<String> ba = pa.size() > 3 ? pa.subList(2, pa.size() - 1) : List.of();
        List<String> bb = pb.size() > 3 ? pb.subList(2, pb.size() - 1) : List.of();
        if (pa.size() < 3 || pb.size() < 3 || !pa.get(1).equals(pb.get(1))) {
            return PHB;
        }
        int common = 0;
        while (common < ba.size() && common < bb.size() && ba.get(common).equals(bb.get(common))) {
            common++;
        }
        if (common == 0) {
            return PHB;
        }
        return common == 1 && ba.size() - common <= 1 && bb.size() - common <= 1 ? PIX : PXB;
    }

    /** "/sys/devices/pci0000:17/0000:17:00.0/0000:18:00.0/..." -> [pci0000:17, 0000:17:00.0, 0000:18:00.0, ...]. */
    private static List<String> chain(String path) {
        List<String> out = new ArrayList<>();
        if (path == null) {
            return out;
        }
        boolean in = false;
        for (String part : path.split("/")) {
            if (part.startsWith("pci")) {
                in = true;
            }
            if (in && !part.isEmpty()) {
                out.add(part);
            }
        }
        return out;
    }

    /** NCCL_NET_GDR_LEVEL's value as a distance: names, or the legacy integers 0-4. */
    static PciDistance parse(String v) {
        String t = v.strip().toUpperCase(java.util.Locale.ROOT);
        for (PciDistance d : values()) {
            if (d.name().equals(t)) {
                return d;
            }
        }
        try {
            int n = Integer.parseInt(t);
            return values()[Math.max(0, Math.min(n, 4))];
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
