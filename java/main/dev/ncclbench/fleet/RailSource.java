package dev.ncclbench.fleet;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.netif.NetInterface;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a node's rails come from, in rail order. One small interface so that another source (doctor's rail table: the
 * Nth GPU in PCI bus order and its nearest NIC) can stand in for the interface list without fleet changing.
 */
@FunctionalInterface
interface RailSource {
    List<NodeRail> rails();

    /**
     * The node's interfaces that {@code spec} names, in its order: a comma list of interface names ("eth1,eth2"), each
     * of which may end in '*' to take every interface with that prefix, in natural order (eth2 before eth10). A name
     * with no IPv4 address here, or one that is not running, is a rail that is down, and says so: it is a finding, not
     * an interface to skip. A pattern only sees interfaces with an address.
     */
    static RailSource interfaces(String spec, List<NetInterface> scan) {
        if (spec == null || spec.isBlank()) {
            throw NcclbenchException.usage("--rails wants interface names in rail order, e.g. --rails eth1,eth2,eth3,eth4 or --rails 'eth*'");
        }
        Map<String, NetInterface> v4 = new LinkedHashMap<>();
        for (NetInterface i : scan) {
            if (!i.ipv6() && !i.loopback()) {
                v4.putIfAbsent(i.name(), i);
            }
        }
        List<String> names = new ArrayList<>();
        for (String raw : spec.split(",")) {
            String e = raw.trim();
            if (e.isEmpty() || !e.matches("[A-Za-z0-9_.:@-]+\\*?")) {
                throw NcclbenchException.usage("--rails: '" + raw.trim() + "' is not an interface name or a NAME* prefix");
            }
            if (e.endsWith("*")) {
                String prefix = e.substring(0, e.length() - 1);
                v4.keySet().stream().filter(n -> n.startsWith(prefix)).sorted(NATURAL).filter(n -> !names.contains(n))
                        .forEach(names::add);
            } else if (names.contains(e)) {
                throw NcclbenchException.usage("--rails names " + e + " twice: one interface is one rail");
            } else {
                names.add(e);
            }
        }
        List<NodeRail> rails = new ArrayList<>();
        for (String n : names) {
            NetInterface i = v4.get(n);
            String address = i == null ? null : i.address().getHostAddress();
            String down = i == null ? n + " has no IPv4 address on this node (missing, or down without one)"
                    : !i.running() ? n + " is down (not RUNNING)" : null;
            rails.add(new NodeRail(n, n, address, down));
        }
        if (rails.size() > NodeRail.MAX_RAILS) {
            throw NcclbenchException.usage("--rails " + spec + " names " + rails.size() + " interfaces; a node has at most "
                    + NodeRail.MAX_RAILS + " rails");
        }
        List<NodeRail> fixed = List.copyOf(rails);
        return () -> fixed;
    }

    /** eth2 before eth10: digit runs compared as numbers. */
    Comparator<String> NATURAL = (a, b) -> {
        Matcher ma = Pattern.compile("(\\D*)(\\d*)").matcher(a);
        Matcher mb = Pattern.compile("(\\D*)(\\d*)").matcher(b);
        while (ma.find() && mb.find() && !(ma.group().isEmpty() && mb.group().isEmpty())) {
            int c = ma.group(1).compareTo(mb.group(1));
            if (c != 0) {
                return c;
            }
            String da = ma.group(2);
            String db = mb.group(2);
            if (!da.equals(db)) {
                if (da.isEmpty() || db.isEmpty()) {
                    return da.isEmpty() ? -1 : 1;
                }
                int n = Long.compare(Long.parseLong(da), Long.parseLong(db));
                return n != 0 ? n : da.compareTo(db);
            }
        }
        return a.compareTo(b);
    };
}
