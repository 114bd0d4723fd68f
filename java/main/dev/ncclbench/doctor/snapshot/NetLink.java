package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import com.fasterxml.jackson.annotation.JsonIgnore;

import java.util.List;

/**
 * One network interface as the kernel lists it.
 *
 * @param index     the kernel's ifindex (getifaddrs order)
 * @param flags     the IFF_ flags doctor cares about: UP, RUNNING, LOOPBACK
 * @param addresses IPv4 first, then IPv6, as getifaddrs returns them
 * @param speedMbps /sys/class/net/NAME/speed; null when the driver reports none (veth, down links)
 * @param type      ether, infiniband (IPoIB), loopback, or the ARPHRD number
 * @param driver    the kernel driver (mlx5_core, ib_ipoib, veth), or null
 * @param pciPath   the device's path under /sys/devices, for the GPU-NIC distance; null when virtual
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record NetLink(String name, int index, List<String> flags, List<Address> addresses, Integer speedMbps,
                      String type, String driver, String pciPath) {
    public NetLink {
        flags = List.copyOf(flags);
        addresses = List.copyOf(addresses);
    }

    @JsonIgnore
    public boolean up() {
        return flags.contains("UP");
    }

    @JsonIgnore
    public boolean running() {
        return flags.contains("RUNNING");
    }

    @JsonIgnore
    public boolean loopback() {
        return flags.contains("LOOPBACK");
    }

    /** One address and its prefix length. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Address(String address, int prefix) {
        @JsonIgnore
        public boolean ipv6() {
            return address.contains(":");
        }
    }
}
