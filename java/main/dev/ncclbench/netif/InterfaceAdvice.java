package dev.ncclbench.netif;

import java.util.List;

/**
 * What to tell a user whose NCCL_SOCKET_IFNAME matches nothing: the interfaces that exist and a value that works.
 * The one place that sentence is built, from {@link InterfaceSelector}'s order.
 */
public final class InterfaceAdvice {
    private InterfaceAdvice() {
    }

    /** The names NCCL could use here (running, with an address), in kernel order. */
    public static List<String> usable(List<NetInterface> all) {
        return all.stream().filter(NetInterface::running).map(NetInterface::name).distinct().toList();
    }

    /** The value to suggest: what NCCL itself would pick with NCCL_SOCKET_IFNAME unset, or null when nothing. */
    public static String suggestion(List<NetInterface> all) {
        NetInterface pick = InterfaceSelector.current().select(all, null, null, null).bootstrap();
        return pick == null ? null : pick.name();
    }

    /** The remedy sentence for "Bootstrap : no socket interface found", for this host. */
    public static String bootstrapRemedy(String ifname) {
        return bootstrapRemedy(InterfaceScan.local(), ifname);
    }

    public static String bootstrapRemedy(List<NetInterface> all, String ifname) {
        List<String> names = usable(all);
        String pick = suggestion(all);
        StringBuilder sb = new StringBuilder();
        if (ifname != null) {
            sb.append("NCCL_SOCKET_IFNAME=").append(ifname).append(" matches no interface that is up; ");
        }
        sb.append("interfaces here: ").append(names.isEmpty() ? "none" : String.join(", ", names));
        if (pick != null) {
            sb.append("; set NCCL_SOCKET_IFNAME=").append(pick);
            if (ifname != null) {
                sb.append(" (or unset NCCL_SOCKET_IFNAME to let NCCL choose)");
            }
        }
        return sb.toString();
    }
}
