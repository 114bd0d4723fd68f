package dev.ncclbench.doctor.predict;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.IbDevice;
import dev.ncclbench.doctor.snapshot.NetLink;
import dev.ncclbench.doctor.snapshot.Nvidia;
import dev.ncclbench.doctor.snapshot.PciFunction;
import dev.ncclbench.doctor.snapshot.PciTopology;
import dev.ncclbench.doctor.snapshot.PortRate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** The rail table's inputs read off a snapshot: the GPUs, the RDMA ports, the network interfaces with a PCI device. */
final class RailPorts {
    private RailPorts() {
    }

    /**
     * Every GPU sysfs or the driver shows, in PCI bus order (CUDA's order for identical GPUs, NCCL's device index):
     * NVIDIA functions of class 0x0300 or 0x0302, and /proc/driver/nvidia/gpus.
     */
    static List<Rail.Gpu> gpus(HostSnapshot s) {
        Map<String, Rail.Gpu> out = new LinkedHashMap<>();
        PciTopology pci = s.pci();
        for (PciFunction f : pci.gpus()) {
            out.put(f.address(), new Rail.Gpu(f.address(), model(s, f.address(), f), f.numaNode(), f.path()));
        }
        for (Nvidia.Gpu g : s.nvidia().gpus()) {
            String bus = g.busId().toLowerCase(java.util.Locale.ROOT);
            if (!out.containsKey(bus)) {
                PciFunction f = g.pciPath() == null ? null : pci.at(g.pciPath()).orElse(null);
                out.put(bus, new Rail.Gpu(bus, g.model(), f == null ? null : f.numaNode(), g.pciPath()));
            }
        }
        List<Rail.Gpu> gpus = new ArrayList<>(out.values());
        gpus.sort(Comparator.comparing(Rail.Gpu::busId));
        return gpus;
    }

    private static String model(HostSnapshot s, String bus, PciFunction f) {
        return s.nvidia().gpus().stream().filter(g -> g.busId().equalsIgnoreCase(bus)).map(Nvidia.Gpu::model)
                .findFirst().orElse("NVIDIA " + f.device());
    }

    /** Every port of every RDMA device, in NCCL's device order (mlx5_2 before mlx5_10). */
    static List<NicPort> rdma(HostSnapshot s, RailSettings settings) {
        List<NicPort> out = new ArrayList<>();
        List<IbDevice> devices = new ArrayList<>(s.ibDevices());
        devices.sort(Comparator.comparing(IbDevice::name, RailPorts::natural));
        for (IbDevice d : devices) {
            PciFunction f = function(s, d.pciPath());
            for (IbDevice.Port p : d.ports()) {
                String netdev = netdev(d, p);
                Integer speed = netdev == null ? null : s.link(netdev).map(NetLink::speedMbps).orElse(null);
                out.add(new NicPort(d.name() + ":" + p.port(), d.name(), p.port(), NicPort.IB,
                        f == null ? null : f.address(), d.pciPath(), f == null ? null : f.numaNode(),
                        f == null ? null : f.model(), p.state(), p.physState(), p.portRate(), p.linkLayer(), netdev, speed,
                        settings.keeps(d.name(), p.port())));
            }
        }
        return out;
    }

    /**
     * The ports ("mlx5_12:1") of SR-IOV virtual functions that are not up while their physical function's RDMA device is
     * on this host: NCCL opens only ACTIVE ports, and a VF no pod or VM was given (no GUID from the subnet manager, its
     * link held down) is configuration, not a fault of the rail its physical function carries. A VF that is the only
     * device of its NIC here (a pod's view) stays a port like any other.
     */
    static Set<String> idleVirtualFunctions(HostSnapshot s) {
        Set<String> physical = new java.util.HashSet<>();
        for (IbDevice d : s.ibDevices()) {
            PciFunction f = function(s, d.pciPath());
            if (f != null && !f.virtualFunction()) {
                physical.add(f.address());
            }
        }
        Set<String> out = new java.util.LinkedHashSet<>();
        for (IbDevice d : s.ibDevices()) {
            PciFunction f = function(s, d.pciPath());
            if (f != null && f.virtualFunction() && physical.contains(f.physfn())) {
                d.ports().stream().filter(p -> !p.up()).forEach(p -> out.add(d.name() + ":" + p.port()));
            }
        }
        return out;
    }

    /**
     * Every interface with a PCI device (what can carry NET/Socket traffic off the node; veth and bridges have
     * none), in kernel order, at the speed it reports; {@code included} when NET/Socket's choice (NCCL_SOCKET_IFNAME
     * or its default) has it.
     */
    static List<NicPort> sockets(HostSnapshot s) {
        Set<String> chosen = InterfacePredictor.predict(s).socketInterfaces().stream().map(Prediction.Endpoint::iface)
                .collect(Collectors.toSet());
        List<NicPort> out = new ArrayList<>();
        for (NetLink l : s.interfaces()) {
            if (l.loopback() || l.pciPath() == null) {
                continue;
            }
            PciFunction f = function(s, l.pciPath());
            double gbps = l.speedMbps() == null ? 0 : l.speedMbps() / 1000.0;
            out.add(new NicPort(l.name(), l.name(), null, NicPort.SOCKET, f == null ? null : f.address(), l.pciPath(),
                    f == null ? null : f.numaNode(), f == null ? null : f.model(), l.running() ? "up" : "down", null,
                    new PortRate(gbps, 0, ""), "infiniband".equals(l.type()) ? "InfiniBand" : "Ethernet", l.name(),
                    l.speedMbps(), chosen.contains(l.name())));
        }
        return out;
    }

    /** The PCI function a device path ends in (a virtio device: the PCI function above it). */
    private static PciFunction function(HostSnapshot s, String path) {
        List<String> chain = PciTopology.chain(path);
        return chain.isEmpty() ? null : s.pci().at(chain.get(chain.size() - 1)).orElse(null);
    }

    /** The port's interface: its GID table's, else the device's (one per port when they line up). */
    private static String netdev(IbDevice d, IbDevice.Port p) {
        for (IbDevice.Gid g : p.gids()) {
            if (g.netdev() != null && !g.netdev().isBlank()) {
                return g.netdev();
            }
        }
        if (d.netdevs().size() == 1) {
            return d.netdevs().get(0);
        }
        int i = d.ports().indexOf(p);
        return d.netdevs().size() == d.ports().size() && i >= 0 ? d.netdevs().get(i) : null;
    }

    /** "mlx5_2" before "mlx5_10": digits compared as numbers. */
    static int natural(String a, String b) {
        String[] x = a.split("(?<=\\D)(?=\\d)|(?<=\\d)(?=\\D)");
        String[] y = b.split("(?<=\\D)(?=\\d)|(?<=\\d)(?=\\D)");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            boolean digits = !x[i].isEmpty() && !y[i].isEmpty() && Character.isDigit(x[i].charAt(0))
                    && Character.isDigit(y[i].charAt(0));
            int c = digits
                    ? new java.math.BigInteger(x[i]).compareTo(new java.math.BigInteger(y[i])) : x[i].compareTo(y[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    }
}
