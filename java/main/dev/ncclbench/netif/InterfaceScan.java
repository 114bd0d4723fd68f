package dev.ncclbench.netif;

import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * This host's interfaces in the order getifaddrs() returns them on Linux: the IPv4 addresses by interface
 * index, then the IPv6 addresses by interface index (netlink dumps one family after the other).
 */
public final class InterfaceScan {
    private InterfaceScan() {
    }

    public static List<NetInterface> local() {
        List<NetInterface> v4 = new ArrayList<>();
        List<NetInterface> v6 = new ArrayList<>();
        List<NetworkInterface> nics;
        try {
            nics = Collections.list(NetworkInterface.getNetworkInterfaces());
        } catch (SocketException e) {
            return List.of();
        }
        nics.sort(Comparator.comparingInt(NetworkInterface::getIndex));
        for (NetworkInterface nic : nics) {
            boolean up;
            boolean loop;
            try {
                up = nic.isUp();
                loop = nic.isLoopback();
            } catch (SocketException e) {
                continue;
            }
            for (InterfaceAddress ia : nic.getInterfaceAddresses()) {
                NetInterface ni = new NetInterface(nic.getName(), ia.getAddress(), ia.getNetworkPrefixLength(), up, loop);
                (ni.ipv6() ? v6 : v4).add(ni);
            }
        }
        List<NetInterface> all = new ArrayList<>(v4);
        all.addAll(v6);
        return all;
    }
}
