package dev.ncclbench.doctor.snapshot;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One PCI function as sysfs shows it under /sys/devices: a GPU, a NIC, or a bridge on the path from the root complex
 * to one of them. NCCL builds its topology from exactly these files (src/graph/xml.cc, ncclTopoGetXmlFromSys).
 *
 * @param address          "0000:18:00.0"
 * @param path             "/sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/0000:18:00.0": the chain
 *                         of bridges is what gives the PCIe distance
 * @param pciClass         class: "0x060400" a bridge, "0x030200" a 3D controller (data-centre GPU), "0x030000" VGA,
 *                         "0x020700" InfiniBand, "0x020000" Ethernet
 * @param numaNode         numa_node; -1 when the firmware does not say; null when unreadable
 * @param maxLinkSpeed     max_link_speed, "32.0 GT/s PCIe" (kernels before 5.7 print "32 GT/s"); null when absent
 * @param currentLinkSpeed current_link_speed: below the max on a link that trained down (or a GPU idling)
 * @param physfn           for an SR-IOV virtual function, the address of its physical function (the {@code physfn}
 *                         link); null for a physical function, or when unread
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record PciFunction(String address, String path, String pciClass, String vendor, String device,
                          String subsystemVendor, String subsystemDevice, Integer numaNode, String maxLinkSpeed,
                          Integer maxLinkWidth, String currentLinkSpeed, Integer currentLinkWidth,
                          String physfn) {
    public static final String NVIDIA = "0x10de";

    /** An NVIDIA display or 3D controller (class 0x0300xx or 0x0302xx): a GPU, not its audio or an NVSwitch. */
    @JsonIgnore
    public boolean gpu() {
        return NVIDIA.equalsIgnoreCase(vendor) && pciClass != null
                && (pciClass.startsWith("0x0302") || pciClass.startsWith("0x0300"));
    }

    /** An SR-IOV virtual function (an mlx5 VF a pod or VM is given): its physical function is the NIC. */
    @JsonIgnore
    public boolean virtualFunction() {
        return physfn != null;
    }

    @JsonIgnore
    public boolean bridge() {
        return pciClass != null && pciClass.startsWith("0x0604");
    }

    /** vendor:device, "0x15b3:0x1021" (ConnectX-7): what says two NICs are the same model; null when unknown. */
    @JsonIgnore
    public String model() {
        return vendor == null || device == null ? null : vendor.toLowerCase(java.util.Locale.ROOT) + ":"
                + device.toLowerCase(java.util.Locale.ROOT);
    }
}
