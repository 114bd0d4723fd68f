package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.List;

/**
 * One RDMA device from /sys/class/infiniband.
 *
 * @param netdevs the network interfaces bound to it (IPoIB or the RoCE Ethernet port)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record IbDevice(String name, String pciPath, List<String> netdevs, List<Port> ports) {
    public IbDevice {
        netdevs = List.copyOf(netdevs);
        ports = List.copyOf(ports);
    }

    /**
     * One port.
     *
     * @param state     "ACTIVE", "DOWN", "INIT", "ARMED" (the text after "N: ")
     * @param physState "LinkUp", "Polling", "Disabled"
     * @param rate      "200 Gb/sec (4X HDR)"
     * @param linkLayer "InfiniBand" or "Ethernet" (RoCE)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Port(int port, String state, String physState, String rate, String linkLayer, List<Gid> gids) {
        public Port {
            gids = List.copyOf(gids);
        }

        public boolean roce() {
            return "Ethernet".equalsIgnoreCase(linkLayer);
        }

        /** The rate in Gb/s, or 0 when unreadable. */
        public double rateGbps() {
            return portRate().gbps();
        }

        /** The rate, width and lane speed the kernel printed. */
        public PortRate portRate() {
            return PortRate.parse(rate);
        }

        /**
         * ACTIVE and LinkUp: the only state in which NCCL opens the port and its rate means anything. NCCL reads the
         * state alone (ibv_query_port), so an ACTIVE port whose phys_state was not read counts as up.
         */
        public boolean up() {
            return "ACTIVE".equalsIgnoreCase(state) && (physState == null || "LinkUp".equalsIgnoreCase(physState));
        }
    }

    /** One non-empty GID table entry: index, value, "RoCE v2" / "IB/RoCE v1", and its netdev. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Gid(int index, String gid, String type, String netdev) {
    }
}
