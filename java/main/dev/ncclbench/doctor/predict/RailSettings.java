package dev.ncclbench.doctor.predict;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.netif.NcclNameList;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NCCL settings that decide which NIC carries which GPU's traffic, read from the snapshot in this one place
 * (environment, then nccl.conf, as NCCL merges them).
 *
 * @param ibHca        NCCL_IB_HCA as a list; the empty list keeps every device
 * @param ibDisabled   NCCL_IB_DISABLE is non-zero: no RDMA, NET/Socket carries the data
 * @param netSocket    NCCL_NET=Socket
 * @param mergeNics    NCCL_IB_MERGE_NICS (default 1): the ports of a dual-port NIC become one virtual NIC
 * @param mergeVfs     NCCL_IB_MERGE_VFS (default 1): a NIC's functions and virtual functions count as one device
 * @param mergeLevel   NCCL_NET_MERGE_LEVEL (default PORT): NICs this close are merged into one
 * @param netsPerGpu   NCCL_NETDEVS_POLICY: 0 AUTO (the NICs at a GPU's distance shared among the GPUs there), -1 ALL,
 *                     n for MAX:n
 * @param evidence     the settings that were set, as "NCCL_IB_HCA=^mlx5_3 (environment)"
 */
public record RailSettings(NcclNameList ibHca, boolean ibDisabled, boolean netSocket, boolean mergeNics,
                           boolean mergeVfs, PathType mergeLevel, int netsPerGpu, List<String> evidence) {
    public static final String IB_HCA = "NCCL_IB_HCA";
    public static final String SOCKET_IFNAME = "NCCL_SOCKET_IFNAME";
    private static final Pattern INT = Pattern.compile("^\\s*([+-]?\\d+)");

    public RailSettings {
        evidence = List.copyOf(evidence);
    }

    public static RailSettings of(HostSnapshot s) {
        List<String> ev = new ArrayList<>();
        for (String name : List.of(IB_HCA, "NCCL_IB_DISABLE", "NCCL_NET", "NCCL_IB_MERGE_NICS", "NCCL_IB_MERGE_VFS",
                "NCCL_NET_MERGE_LEVEL", "NCCL_NETDEVS_POLICY", SOCKET_IFNAME)) {
            s.setting(name).ifPresent(v -> ev.add(v.evidence()));
        }
        String hca = value(s, IB_HCA);
        PathType level = value(s, "NCCL_NET_MERGE_LEVEL") == null ? PathType.PORT
                : PathType.parseLevel(value(s, "NCCL_NET_MERGE_LEVEL"));
        String policy = value(s, "NCCL_NETDEVS_POLICY");
        int perGpu = 0;
        if (policy != null && policy.equalsIgnoreCase("ALL")) {
            perGpu = -1;
        } else if (policy != null && policy.toUpperCase(java.util.Locale.ROOT).startsWith("MAX:")) {
            perGpu = Math.max(0, integer(policy.substring(4), 0));
        }
        return new RailSettings(NcclNameList.parse(hca), integer(value(s, "NCCL_IB_DISABLE"), 0) != 0,
                "Socket".equalsIgnoreCase(value(s, "NCCL_NET")), integer(value(s, "NCCL_IB_MERGE_NICS"), 1) != 0,
                integer(value(s, "NCCL_IB_MERGE_VFS"), 1) != 0, level == null ? PathType.PORT : level, perGpu, ev);
    }

    /** Whether NCCL_IB_HCA keeps this device's port. */
    public boolean keeps(String device, int port) {
        return ibHca.keeps(device, port);
    }

    private static String value(HostSnapshot s, String name) {
        return s.setting(name).map(HostSnapshot.Setting::value).orElse(null);
    }

    /** NCCL's integer parameters (loadParam: strtoll): "1x" is 1, garbage is 0; unset is the default. */
    private static int integer(String v, int dflt) {
        if (v == null) {
            return dflt;
        }
        Matcher m = INT.matcher(v);
        if (!m.find()) {
            return 0;
        }
        try {
            return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, Long.parseLong(m.group(1))));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }
}
