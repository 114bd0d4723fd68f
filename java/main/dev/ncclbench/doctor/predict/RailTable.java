package dev.ncclbench.doctor.predict;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.NetLink;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Rail by rail: every GPU of a host with the NIC port(s) NCCL's topology gives it, each port's state, rate, link
 * layer and whether the settings keep it, and a verdict per rail. Pure: computed from a snapshot alone.
 *
 * <p>A rail's NIC is what NCCL would pick among the ports NCCL_IB_HCA keeps were every port up at its model's rate
 * (so a port that trained down or went down stays in the rail it belongs to); {@code excluded} what it would pick were
 * NCCL_IB_HCA unset, when the setting drops it; {@code nccl_uses} is what NCCL picks as things are, skipping ports
 * that are down.
 *
 * @param transport  "IB" (RDMA ports, InfiniBand or RoCE) or "Socket" (no usable RDMA: network interfaces)
 * @param settings   the NCCL settings that were read, with where each was set
 * @param rails      one per GPU, in PCI bus order
 * @param otherPorts ports no GPU is paired with (storage and management NICs, spare ports, RDMA ports NCCL cannot use)
 * @param notes      what the table could not show, in words ("no GPU found: ...")
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"transport", "settings", "rails", "other_ports", "notes"})
public record RailTable(String transport, List<String> settings, List<Rail> rails, List<NicPort> otherPorts,
                        List<String> notes) {
    public RailTable {
        settings = List.copyOf(settings);
        rails = List.copyOf(rails);
        otherPorts = List.copyOf(otherPorts);
        notes = List.copyOf(notes);
    }

    public static RailTable of(HostSnapshot s) {
        RailSettings settings = RailSettings.of(s);
        List<Rail.Gpu> gpus = RailPorts.gpus(s);
        List<NicPort> rdma = RailPorts.rdma(s, settings);
        Set<String> idleVfs = RailPorts.idleVirtualFunctions(s);
        List<NicPort> usableRdma = rdma.stream().filter(p -> ncclOpens(p) && !idleVfs.contains(p.name())).toList();
        boolean ib = !usableRdma.isEmpty() && !settings.ibDisabled() && !settings.netSocket();
        List<NicPort> all = ib ? rdma : RailPorts.sockets(s);
        List<NicPort> candidates = ib ? usableRdma : all;
        List<String> notes = notes(s, gpus, rdma, usableRdma, ib, settings, all);

        List<String> gpuPaths = gpus.stream().map(Rail.Gpu::pciPath).toList();
        List<String> endpoints = new ArrayList<>(gpuPaths);
        candidates.forEach(p -> endpoints.add(p.pciPath()));
        endpoints.removeIf(java.util.Objects::isNull);
        NcclTopology first = NcclTopology.of(s.pci(), endpoints, -1);
        int firstCpu = gpuPaths.isEmpty() || gpuPaths.get(0) == null ? -1 : first.cpu(gpuPaths.get(0));
        NcclTopology topo = NcclTopology.of(s.pci(), endpoints, firstCpu);
        double interCpu = NcclTopology.interCpuGBps(s.pci().cpu());

        Nominal nominal = new Nominal(candidates);
        List<NicPort> included = candidates.stream().filter(NicPort::included).toList();
        List<NicAssignment.Pick> anyPort = pick(gpuPaths, candidates, settings, topo, interCpu, nominal);
        List<NicAssignment.Pick> rail = pick(gpuPaths, included, settings, topo, interCpu, nominal);
        List<NicAssignment.Pick> uses = pick(gpuPaths, included.stream().filter(NicPort::up).toList(), settings, topo,
                interCpu, nominal);

        List<Rail> rails = new ArrayList<>();
        Set<NicPort> inRails = new LinkedHashSet<>();
        for (int i = 0; i < gpus.size(); i++) {
            NicAssignment.Pick p = rail.get(i);
            List<NicPort> ports = p.nics().stream().flatMap(n -> n.ports().stream()).toList();
            List<NicPort> left = anyPort.get(i).nics().stream().flatMap(n -> n.ports().stream())
                    .filter(q -> !q.included()).toList();
            inRails.addAll(ports);
            inRails.addAll(left);
            Rail r = new Rail(i, gpus.get(i), p.nics().isEmpty() ? null : names(p), p.distance(), ports, left,
                    uses.get(i).nics().stream().map(NicAssignment.Nic::name).toList(), uses.get(i).distance(),
                    sharing(i, uses), RailVerdict.OK, List.of());
            rails.add(r.judged(RailVerdict.OK, RailJudge.excluded(r, anyPort.get(i).distance(), s)));
        }
        List<NicPort> others = all.stream().filter(p -> !inRails.contains(p)).toList();
        return new RailTable(ib ? NicPort.IB : NicPort.SOCKET, settings.evidence(),
                RailJudge.judge(rails, others, s), others, notes);
    }

    private static List<NicAssignment.Pick> pick(List<String> gpus, List<NicPort> ports, RailSettings settings,
                                                 NcclTopology topo, double interCpu, Nominal nominal) {
        return NicAssignment.assign(gpus, NicAssignment.nics(ports, settings, topo, nominal::gbps), topo, interCpu,
                settings.netsPerGpu());
    }

    /** The rail of this GPU index, if the host has that many GPUs. */
    public Optional<Rail> rail(int index) {
        return index >= 0 && index < rails.size() ? Optional.of(rails.get(index)) : Optional.empty();
    }

    /**
     * The RDMA ports ("mlx5_12:1") of SR-IOV virtual functions that are not up beside their physical function: no GPU's
     * rail, and nothing to fix (a VF no pod or VM was given).
     */
    public static Set<String> idleVirtualFunctions(HostSnapshot s) {
        return RailPorts.idleVirtualFunctions(s);
    }

    /** The rails with this verdict among their problems. */
    public List<Rail> with(RailVerdict v) {
        return rails.stream().filter(r -> r.has(v)).toList();
    }

    /**
     * NCCL's IB plugin opens InfiniBand and RoCE (Ethernet) ports; other link layers it skips. A port whose link_layer
     * was not read (a capture without it; every kernel since 2.6.37 writes it) is not held against it.
     */
    private static boolean ncclOpens(NicPort p) {
        return p.linkLayer() == null || "InfiniBand".equalsIgnoreCase(p.linkLayer())
                || "Ethernet".equalsIgnoreCase(p.linkLayer());
    }

    private static String names(NicAssignment.Pick p) {
        return String.join(", ", p.nics().stream().map(NicAssignment.Nic::name).toList());
    }

    /** The other rails NCCL puts on one of this GPU's NICs. */
    private static List<Integer> sharing(int i, List<NicAssignment.Pick> uses) {
        List<Integer> out = new ArrayList<>();
        for (int k = 0; k < uses.size(); k++) {
            if (k != i && uses.get(k).nics().stream().anyMatch(n -> uses.get(i).nics().stream()
                    .anyMatch(m -> m.name().equals(n.name())))) {
                out.add(k);
            }
        }
        return out;
    }

    private static List<String> notes(HostSnapshot s, List<Rail.Gpu> gpus, List<NicPort> rdma, List<NicPort> usable,
                                      boolean ib, RailSettings settings, List<NicPort> all) {
        List<String> out = new ArrayList<>();
        if (gpus.isEmpty()) {
            out.add("no GPU found (no NVIDIA display or 3D controller under /sys/bus/pci/devices, nothing in"
                    + " /proc/driver/nvidia/gpus): no rails to show");
        }
        if (rdma.isEmpty()) {
            out.add("no RDMA NIC (/sys/class/infiniband is empty or absent): NCCL will use sockets (NET/Socket)");
        } else if (usable.isEmpty()) {
            // EFA (AWS) and other devices whose link layer is neither: NCCL's IB transport skips them, a net plugin
            // (aws-ofi-nccl) may not, and this table does not model a plugin's choice
            out.add("no RDMA port NCCL's own IB transport opens (link layer "
                    + String.join(", ", rdma.stream().map(NicPort::linkLayerText).distinct().toList())
                    + "): NCCL uses sockets unless a net plugin (aws-ofi-nccl for EFA) carries the traffic, so the rails"
                    + " below are the network interfaces NET/Socket would use");
        } else if (!ib) {
            out.add((settings.ibDisabled() ? "NCCL_IB_DISABLE" : "NCCL_NET=Socket") + " turns RDMA off: NCCL will use"
                    + " sockets, so the rails are network interfaces");
        }
        if (!ib && all.isEmpty()) {
            out.add("no network interface with a PCI device ("
                    + String.join(", ", s.interfaces().stream().filter(l -> !l.loopback()).map(NetLink::name).toList())
                    + "): nothing can carry traffic off this node");
        }
        if (s.pci().functions().isEmpty() && !gpus.isEmpty()) {
            out.add("no PCI attributes in the evidence (a snapshot from before the rail table, or a capture without"
                    + " them): distances come from the paths alone, NUMA nodes and PCIe links are unknown");
        }
        return out;
    }

    /**
     * The rate a port would have were it healthy: the best rate an up port of the same model (PCI vendor:device; when
     * unknown, of the same link layer) shows on this host, so that a port down or trained down keeps the rail it
     * belongs to and a slower NIC of another model (a storage card) still loses to the rail's own. When no port of its
     * kind is up it counts as unlimited: only the topology places it.
     */
    private static final class Nominal {
        private final java.util.Map<String, Double> byKind = new java.util.HashMap<>();

        Nominal(List<NicPort> ports) {
            for (NicPort p : ports) {
                if (p.up() && p.rate().known()) {
                    byKind.merge(kind(p), p.rate().gbps(), Math::max);
                }
            }
        }

        private static String kind(NicPort p) {
            return p.transport() + " " + (p.model() != null ? p.model() : "layer " + p.linkLayer());
        }

        double gbps(NicPort p) {
            return byKind.getOrDefault(kind(p), NcclTopology.UNLIMITED);
        }
    }
}
