package dev.ncclbench.doctor.predict;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.doctor.snapshot.PortRate;

/**
 * One port NCCL could carry a GPU's traffic on: an RDMA port (transport IB; InfiniBand or RoCE) or, on a host where
 * NCCL uses sockets, a network interface with a PCI device.
 *
 * @param name           how NCCL names it: "mlx5_3:1" (NCCL_IB_HCA's device:port), or the interface, "eth1"
 * @param device         the RDMA device ("mlx5_3") or the interface
 * @param port           the RDMA port number; null for an interface
 * @param transport      "IB" (NCCL's IB transport, InfiniBand and RoCE) or "Socket"
 * @param pciAddress     "0000:9a:00.0"; null when the device is not on PCI
 * @param model          PCI vendor:device ("0x15b3:0x1021", ConnectX-7): ports of one model are siblings
 * @param state          "ACTIVE", "DOWN", "INIT", "ARMED"; for an interface "up" or "down"
 * @param physState      "LinkUp", "Polling", "Disabled"; null for an interface
 * @param linkLayer      "InfiniBand" or "Ethernet"
 * @param netdev         the interface on the port (IPoIB, or the RoCE Ethernet port), null when none
 * @param netdevSpeedMbps /sys/class/net/NETDEV/speed; null when it reports none
 * @param included       whether NCCL_IB_HCA (IB) or NET/Socket's choice (NCCL_SOCKET_IFNAME or its default) keeps it
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"name", "device", "port", "transport", "pci_address", "pci_path", "numa_node", "model", "state",
        "phys_state", "rate", "link_layer", "netdev", "netdev_speed_mbps", "included"})
public record NicPort(String name, String device, Integer port, String transport, String pciAddress, String pciPath,
                      Integer numaNode, String model, String state, String physState, PortRate rate, String linkLayer,
                      String netdev, Integer netdevSpeedMbps, boolean included) {
    public static final String IB = "IB";
    public static final String SOCKET = "Socket";

    /**
     * ACTIVE and LinkUp (an interface: up): the only state in which NCCL uses the port and its rate means anything.
     * NCCL itself reads the state alone, so an ACTIVE port whose phys_state was not read counts as up.
     */
    @JsonIgnore
    public boolean up() {
        return IB.equals(transport)
                ? "ACTIVE".equalsIgnoreCase(state) && (physState == null || "LinkUp".equalsIgnoreCase(physState))
                : "up".equals(state);
    }

    /** "ACTIVE / LinkUp", "DOWN / Polling", "up". */
    @JsonIgnore
    public String stateText() {
        return physState == null ? String.valueOf(state) : state + " / " + physState;
    }

    /** "InfiniBand", "Ethernet", or "unknown" when link_layer was not read. */
    @JsonIgnore
    public String linkLayerText() {
        return linkLayer == null ? "unknown" : linkLayer;
    }

    /** The setting that keeps or drops it: NCCL_IB_HCA for RDMA ports, NCCL_SOCKET_IFNAME for interfaces. */
    @JsonIgnore
    public String filter() {
        return IB.equals(transport) ? RailSettings.IB_HCA : RailSettings.SOCKET_IFNAME;
    }
}
