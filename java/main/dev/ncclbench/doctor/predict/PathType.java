package dev.ncclbench.doctor.predict;

import java.util.Locale;

/**
 * How far apart two PCI devices are, in NCCL's words and order (src/include/graph.h PATH_*; the NVLink kinds left
 * out): the same device, two ports of one NIC, the same PCIe switch, several switches, through the CPU's host bridge,
 * across the link between sockets. NCCL_NET_GDR_LEVEL and NCCL_NET_MERGE_LEVEL are read in these names.
 */
public enum PathType {
    LOC("the same device"),
    PORT("two ports of one NIC"),
    PIX("the same PCIe switch"),
    PXB("across several PCIe switches"),
    PHB("through the CPU's host bridge"),
    SYS("across the link between CPU sockets");

    /** What it means, in a sentence's words. */
    public final String meaning;

    PathType(String meaning) {
        this.meaning = meaning;
    }

    /**
     * NCCL_NET_GDR_LEVEL's value as NCCL reads it (paths.cc ncclGetLevel): a name, or the integers 0-5 of before 2.4
     * (0 LOC, 1 PIX, 2 PXB, 3 PHB, 4 and 5 SYS); null when it is neither.
     */
    public static PathType parseLevel(String v) {
        String t = v.strip().toUpperCase(Locale.ROOT);
        for (PathType d : values()) {
            if (d.name().equals(t)) {
                return d;
            }
        }
        try {
            int n = Integer.parseInt(t);
            PathType[] old = {LOC, PIX, PXB, PHB, SYS, SYS};
            return old[Math.max(0, Math.min(n, old.length - 1))];
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
