package dev.ncclbench.doctor.compare;

import dev.ncclbench.doctor.predict.NicPort;
import dev.ncclbench.doctor.predict.PathType;
import dev.ncclbench.doctor.predict.Rail;
import dev.ncclbench.doctor.predict.RailTable;
import dev.ncclbench.finding.BaseRule;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.References;
import dev.ncclbench.finding.Severity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Rail N of one node differs from rail N of the others: its port is down, runs a lower rate, another link layer, or
 * sits farther from its GPU (a NIC missing from the bus leaves a far one), or the node has fewer GPUs. Each odd node and
 * rail is named with the value the other nodes agree on; between two nodes the slower, farther, down or Ethernet one
 * is the odd one.
 */
public final class RailsDiffer extends BaseRule<HostSet> {
    public RailsDiffer() {
        super("NODES-RAILS-DIFFER", Severity.ERROR, "a node's rail differs from the same rail on the other nodes (state,"
                + " rate, link layer, distance to its GPU) or a node has fewer GPUs");
    }

    /** One thing compared per rail: its value's text, how values order (the first is the norm on a tie), severity. */
    private record Aspect(String what, Function<Rail, String> text, Comparator<Rail> better, Severity severity) {
    }

    private static final List<Aspect> ASPECTS = List.of(
            new Aspect("state", r -> RailRow.of(r).state(), Comparator.comparing(r -> !"up".equals(RailRow.of(r).state())),
                    Severity.ERROR),
            new Aspect("rate", r -> RailRow.of(r).rate(), Comparator.comparingDouble(RailsDiffer::gbps).reversed(),
                    Severity.ERROR),
            new Aspect("link layer", r -> RailRow.of(r).linkLayer(),
                    Comparator.comparing(r -> !"InfiniBand".equals(RailRow.of(r).linkLayer())), Severity.ERROR),
            new Aspect("distance", r -> String.valueOf(r.distance()),
                    Comparator.comparing(r -> r.distance() == null ? PathType.SYS : r.distance()), Severity.WARNING));

    @Override
    public List<Finding> check(HostSet f) {
        List<RailTable> tables = f.hosts().stream().map(RailTable::of).toList();
        List<Finding> out = new ArrayList<>(gpuCounts(f, tables));
        // rails are compared among the nodes on the transport most use; a node on another is said once
        Map<String, List<Integer>> byTransport = new LinkedHashMap<>();
        for (int h = 0; h < tables.size(); h++) {
            byTransport.computeIfAbsent(tables.get(h).transport(), k -> new ArrayList<>()).add(h);
        }
        String transport = byTransport.entrySet().stream().max(Comparator.<Map.Entry<String, List<Integer>>>comparingInt(
                e -> e.getValue().size()).thenComparing(e -> NicPort.IB.equals(e.getKey()))).orElseThrow().getKey();
        byTransport.forEach((t, hosts) -> {
            if (!t.equals(transport)) {
                for (int h : hosts) {
                    out.add(finding(Severity.WARNING, f.name(h) + " carries its rails over " + t + " where "
                                    + byTransport.get(transport).size() + " other node(s) use " + transport,
                            "NCCL_IB_DISABLE, NCCL_NET=Socket, a missing RDMA device or a port that is down leaves a node"
                                    + " on sockets: every collective with it runs at socket speed.",
                            List.of(f.name(h) + ": " + String.join("; ", tables.get(h).notes())),
                            List.of("ncclbench doctor   # on " + f.name(h) + ": why it has no RDMA"), References.RUNBOOK));
                }
            }
        });
        int most = tables.stream().mapToInt(t -> t.rails().size()).max().orElse(0);
        for (int r = 0; r < most; r++) {
            Map<Integer, Rail> rails = new LinkedHashMap<>();
            for (int h : byTransport.get(transport)) {
                final int host = h;
                tables.get(h).rail(r).ifPresent(x -> rails.put(host, x));
            }
            if (rails.size() < 2) {
                continue;
            }
            for (Aspect a : ASPECTS) {
                out.addAll(odd(f, rails, a));
            }
        }
        return out;
    }

    /** The nodes whose value of this aspect is not the one most nodes share (on a tie: the better one). */
    private List<Finding> odd(HostSet f, Map<Integer, Rail> rails, Aspect a) {
        if (a.what().equals("rate") || a.what().equals("link layer")) {
            // a rate or layer of a port that is down means nothing: judged on nodes whose rail is up
            rails = new LinkedHashMap<>(rails);
            rails.values().removeIf(r -> r.ports().isEmpty() || !r.ports().stream().allMatch(NicPort::up));
        }
        Map<String, List<Integer>> byValue = new LinkedHashMap<>();
        rails.forEach((h, r) -> byValue.computeIfAbsent(String.valueOf(a.text().apply(r)), k -> new ArrayList<>()).add(h));
        if (byValue.size() < 2) {
            return List.of();
        }
        final Map<Integer, Rail> judged = rails;
        String norm = byValue.entrySet().stream().max(Comparator.<Map.Entry<String, List<Integer>>>comparingInt(e -> e.getValue().size())
                .thenComparing(e -> judged.get(e.getValue().get(0)), a.better().reversed())).orElseThrow().getKey();
        int agree = byValue.get(norm).size();
        List<Finding> out = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> e : byValue.entrySet()) {
            if (e.getKey().equals(norm)) {
                continue;
            }
            for (int h : e.getValue()) {
                Rail r = judged.get(h);
                String nic = r.ports().isEmpty() ? "no NIC" : String.join(", ", r.ports().stream().map(NicPort::name).toList());
                String title = f.name(h) + " rail " + r.rail() + " (" + nic + "): " + a.what() + " " + e.getKey() + " where "
                        + (agree == 1 ? "the other node has " : agree + " other nodes have ") + norm;
                List<String> ev = new ArrayList<>();
                judged.forEach((k, x) -> ev.add(f.name(k) + " rail " + x.rail() + ": " + RailRow.of(x).text()));
                out.add(finding(a.severity(), title, "Rail " + r.rail() + " of every node meets rail " + r.rail() + " of the"
                                + " others on a rail-optimised fabric, and a collective runs at the pace of its slowest rail:"
                                + " one node's odd rail slows every job that includes that node.", ev,
                        List.of("ncclbench doctor   # on " + f.name(h) + ": the rail table and its verdict",
                                "ibstat " + (r.ports().isEmpty() ? "" : r.ports().get(0).device()) + "   # on " + f.name(h),
                                "drain " + f.name(h) + " until rail " + r.rail() + " matches the others"),
                        References.NET_DOC));
            }
        }
        return out;
    }

    /** A node with fewer GPUs than the others: one fell off the bus (or is hidden from the container). */
    private List<Finding> gpuCounts(HostSet f, List<RailTable> tables) {
        Map<Integer, List<Integer>> byCount = new LinkedHashMap<>();
        for (int h = 0; h < tables.size(); h++) {
            byCount.computeIfAbsent(tables.get(h).rails().size(), k -> new ArrayList<>()).add(h);
        }
        if (byCount.size() < 2) {
            return List.of();
        }
        int norm = byCount.entrySet().stream().max(Comparator.<Map.Entry<Integer, List<Integer>>>comparingInt(e -> e.getValue().size())
                .thenComparing(Map.Entry::getKey)).orElseThrow().getKey();
        List<Finding> out = new ArrayList<>();
        List<String> ev = new ArrayList<>();
        for (int h = 0; h < tables.size(); h++) {
            ev.add(f.name(h) + ": " + tables.get(h).rails().size() + " GPUs");
        }
        byCount.forEach((count, hosts) -> {
            if (count != norm) {
                for (int h : hosts) {
                    out.add(finding(Severity.ERROR, f.name(h) + " has " + count + " GPUs (rails) where "
                                    + byCount.get(norm).size() + " other node(s) have " + norm,
                            "A GPU that fell off the PCI bus (or a container that sees fewer) leaves a rail with no GPU, and a"
                                    + " job sized for " + norm + " GPUs per node fails to start there.", ev,
                            List.of("nvidia-smi -L   # on " + f.name(h), "lspci -d 10de:   # is every GPU on the bus?"),
                            References.RUNBOOK));
                }
            }
        });
        return out;
    }

    /** The slowest port that is up: what the rail runs at. */
    private static double gbps(Rail r) {
        return r.ports().stream().filter(NicPort::up).mapToDouble(p -> p.rate().gbps()).min().orElse(0);
    }
}
