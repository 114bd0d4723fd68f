package dev.ncclbench.netif;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How NCCL picks its socket interfaces (bootstrap, NET/Socket, the IB out-of-band socket), implemented once:
 * the socket backend binds with it and the diagnosis predicts NCCL's choice with it.
 *
 * <p>NCCL_SOCKET_IFNAME longer than one character: only that list, no fallback ({@link NcclNameList}: comma-separated
 * name prefixes, a leading '^' excludes, then a leading '=' means exact names, a ':port' suffix matches any interface).
 * Unset: names starting with "ib"; then the interface in NCCL_COMM_ID's subnet; then anything but docker, lo
 * (and virbr from 2.28); then docker; then lo; then virbr (2.28+). From 2.28, interfaces not running are
 * skipped. Bootstrap uses the first match; NET/Socket uses up to 16.
 */
public final class InterfaceSelector {
    /** NCCL's MAX_IFS. */
    public static final int MAX_INTERFACES = 16;

    private final int ncclVersionCode;

    /**
     * @param ncclVersionCode NCCL's version code (e.g. 23007 for 2.30.7; 2.28.0 is 22800) whose rules to follow
     */
    public InterfaceSelector(int ncclVersionCode) {
        this.ncclVersionCode = ncclVersionCode;
    }

    /** The rules of the newest NCCL this project knows. */
    public static InterfaceSelector current() {
        return new InterfaceSelector(23007);
    }

    /** The outcome: the matches in order, and which rule produced them. */
    public record Selection(List<NetInterface> interfaces, String rule) {
        public boolean empty() {
            return interfaces.isEmpty();
        }

        /** What bootstrap uses: the first match. */
        public NetInterface bootstrap() {
            return interfaces.isEmpty() ? null : interfaces.get(0);
        }
    }

    /**
     * @param ifname    NCCL_SOCKET_IFNAME, or null
     * @param family    NCCL_SOCKET_FAMILY ("AF_INET", "AF_INET6"), or null
     * @param commId    NCCL_COMM_ID ("host:port"), or null
     */
    public Selection select(List<NetInterface> candidates, String ifname, String family, String commId) {
        int fam = family == null ? 0 : family.trim().equalsIgnoreCase("AF_INET") ? 4
                : family.trim().equalsIgnoreCase("AF_INET6") ? 6 : 0;
        if (ifname != null && ifname.length() > 1) {
            return new Selection(find(candidates, ifname, fam), "NCCL_SOCKET_IFNAME=" + ifname);
        }
        List<NetInterface> found = find(candidates, "ib", fam);
        if (!found.isEmpty()) {
            return new Selection(found, "default: names starting with ib");
        }
        if (commId != null && !commId.isBlank()) {
            NetInterface inSubnet = inSubnetOf(candidates, commId, fam);
            if (inSubnet != null) {
                return new Selection(List.of(inSubnet), "default: the interface in NCCL_COMM_ID's subnet");
            }
        }
        boolean v228 = ncclVersionCode >= 22800;
        String[][] steps = v228
                ? new String[][] {{"^docker,lo,virbr", "anything but docker, lo, virbr"}, {"docker", "docker"}, {"lo", "lo"}, {"virbr", "virbr"}}
                : new String[][] {{"^docker,lo", "anything but docker and lo"}, {"docker", "docker"}, {"lo", "lo"}};
        for (String[] step : steps) {
            found = find(candidates, step[0], fam);
            if (!found.isEmpty()) {
                return new Selection(found, "default: " + step[1]);
            }
        }
        return new Selection(List.of(), "default: no interface at all");
    }

    /**
     * What bootstrap binds (bootstrapNetInit): with NCCL_COMM_ID set, the first interface in that address's subnet,
     * whatever NCCL_SOCKET_IFNAME says; otherwise the first interface {@link #select} finds.
     */
    public Selection bootstrap(List<NetInterface> candidates, String ifname, String family, String commId) {
        if (commId != null && commId.length() > 1) {
            NetInterface inSubnet = inSubnetOf(candidates, commId, 0);
            return inSubnet == null
                    ? new Selection(List.of(), "NCCL_COMM_ID=" + commId + ": no interface in its subnet")
                    : new Selection(List.of(inSubnet), "NCCL_COMM_ID=" + commId + ": the interface in its subnet"
                            + " (NCCL_SOCKET_IFNAME is not consulted for bootstrap)");
        }
        Selection all = select(candidates, ifname, family, commId);
        return all.empty() ? all : new Selection(List.of(all.bootstrap()), all.rule());
    }

    /** NCCL's findInterfaces for one NCCL_SOCKET_IFNAME-style list ({@link NcclNameList}'s syntax). */
    List<NetInterface> find(List<NetInterface> candidates, String spec, int family) {
        NcclNameList list = NcclNameList.parse(spec);
        Map<String, NetInterface> byName = new LinkedHashMap<>();
        for (NetInterface ni : candidates) {
            if (byName.size() >= MAX_INTERFACES) {
                break;
            }
            if (family == 4 && !(ni.address() instanceof Inet4Address)) {
                continue;
            }
            if (family == 6 && !(ni.address() instanceof Inet6Address)) {
                continue;
            }
            if (ni.ipv6() && ni.address().isLoopbackAddress()) {
                continue;
            }
            if (ncclVersionCode >= 22800 && !ni.running()) {
                continue;
            }
            if (!list.keeps(ni.name(), NcclNameList.ANY_PORT)) {
                continue;
            }
            byName.putIfAbsent(ni.name(), ni);
        }
        return List.copyOf(byName.values());
    }

    private static NetInterface inSubnetOf(List<NetInterface> candidates, String commId, int family) {
        String host = commId.trim();
        int colon = host.lastIndexOf(':');
        if (colon > 0 && host.indexOf(':') == colon) {
            host = host.substring(0, colon);
        } else if (host.startsWith("[") && host.contains("]")) {
            host = host.substring(1, host.indexOf(']'));
        }
        InetAddress target;
        try {
            target = InetAddress.getByName(host);
        } catch (java.net.UnknownHostException e) {
            return null;
        }
        for (NetInterface ni : candidates) {
            if (family == 4 && ni.ipv6() || family == 6 && !ni.ipv6()) {
                continue;
            }
            if (sameSubnet(ni.address(), target, ni.prefixLength())) {
                return ni;
            }
        }
        return null;
    }

    public static boolean sameSubnet(InetAddress a, InetAddress b, int prefix) {
        byte[] x = a.getAddress();
        byte[] y = b.getAddress();
        if (x.length != y.length) {
            return false;
        }
        int bits = Math.min(prefix, x.length * 8);
        for (int i = 0; i < bits; i++) {
            int mask = 0x80 >>> (i % 8);
            if ((x[i / 8] & mask) != (y[i / 8] & mask)) {
                return false;
            }
        }
        return true;
    }

    /** For messages: the names that exist, e.g. "lo, eth0, ib0". */
    public static String names(List<NetInterface> candidates) {
        List<String> out = new ArrayList<>();
        for (NetInterface ni : candidates) {
            if (!out.contains(ni.name())) {
                out.add(ni.name());
            }
        }
        return out.isEmpty() ? "(none)" : String.join(", ", out);
    }
}
