package dev.ncclbench.env;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The network interfaces of this machine that are up and have an address: what NCCL_SOCKET_IFNAME can name. */
public final class Interfaces {
    private Interfaces() {
    }

    public static List<String> up() {
        List<String> out = new ArrayList<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!ni.isUp()) {
                    continue;
                }
                boolean hasAddress = false;
                for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                    hasAddress |= a != null;
                }
                if (hasAddress) {
                    out.add(ni.getName());
                }
            }
        } catch (SocketException e) {
            // none readable
        }
        out.sort(null);
        return out;
    }

    /** The one to suggest: NCCL's own preference order (ib*, then anything but docker/lo/virbr, then lo). */
    public static String suggestion(List<String> names) {
        for (String n : names) {
            if (n.startsWith("ib")) {
                return n;
            }
        }
        for (String n : names) {
            if (!n.startsWith("docker") && !n.startsWith("lo") && !n.startsWith("virbr")) {
                return n;
            }
        }
        return names.isEmpty() ? null : names.get(0);
    }

    /** The remedy sentence for "Bootstrap : no socket interface found". */
    public static String bootstrapRemedy(String ifname) {
        List<String> names = up();
        String pick = suggestion(names);
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
