package dev.ncclbench.netif;

import java.net.InetAddress;

/**
 * One address of one interface, as getifaddrs() lists it.
 *
 * @param running whether the interface is up and running (NCCL >= 2.28 skips it otherwise)
 * @param prefixLength the address's subnet prefix, for NCCL_COMM_ID subnet matching
 */
public record NetInterface(String name, InetAddress address, int prefixLength, boolean running, boolean loopback) {

    public boolean ipv6() {
        return address instanceof java.net.Inet6Address;
    }

    /** "eth0:10.0.0.1", as NCCL prints it without the port. */
    public String label() {
        return name + ":" + address.getHostAddress().replaceAll("%.*$", "");
    }
}
