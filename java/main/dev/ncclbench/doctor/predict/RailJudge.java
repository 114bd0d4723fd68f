package dev.ncclbench.doctor.predict;

import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.SiteLink;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The verdict on each rail. A port is judged against its siblings (the other rails' ports of the same transport, link
 * layer and NIC model on this host) and against the fabric a site declared for it in the catalog, never against
 * nothing; a port that is down has no rate worth reading (the kernel prints a default), so it is only "down".
 */
final class RailJudge {
    private RailJudge() {
    }

    /** @param others the ports no GPU is paired with: a NIC of the rails' model among them may be one misplaced */
    static List<Rail> judge(List<Rail> rails, List<NicPort> others, HostSnapshot s) {
        Set<NicPort> railPorts = new LinkedHashSet<>();
        rails.forEach(r -> railPorts.addAll(r.ports()));
        String layer = majorityLayer(railPorts);
        List<Rail> out = new ArrayList<>();
        for (Rail r : rails) {
            List<Rail.Problem> problems = new ArrayList<>(r.problems());
            if (r.ports().isEmpty() && r.excluded().isEmpty()) {
                problems.add(new Rail.Problem(RailVerdict.NO_NIC_NEAR, null, "no NIC at all: nothing NCCL can use"
                        + " carries this GPU's traffic off the node"));
            }
            boolean leftOut = r.problems().stream().anyMatch(p -> p.verdict() == RailVerdict.EXCLUDED);
            if (!leftOut) { // a setting that leaves out the GPU's NIC explains the far one: said once, as EXCLUDED
                noNicOfItsOwn(r, rails, others).ifPresent(problems::add);
            }
            for (NicPort p : r.ports()) {
                if (!p.up()) {
                    problems.add(new Rail.Problem(RailVerdict.DOWN, p.name(), p.name() + " is " + p.stateText()
                            + " (expected " + (NicPort.IB.equals(p.transport()) ? "ACTIVE / LinkUp" : "up") + ")"
                            + elsewhere(r)));
                    continue;
                }
                if (layer != null && p.linkLayer() != null && !layer.equalsIgnoreCase(p.linkLayer())) {
                    long up = railPorts.stream().filter(NicPort::up).count();
                    long same = railPorts.stream().filter(q -> q.up() && layer.equalsIgnoreCase(q.linkLayer())).count();
                    problems.add(new Rail.Problem(RailVerdict.WRONG_LINK_LAYER, p.name(), p.name() + " runs "
                            + describe(p.linkLayer()) + " while " + same + " of the " + up + " active rail ports run "
                            + describe(layer) + ": it reaches no peer they reach"));
                }
                trainedDown(p, railPorts, s).ifPresent(problems::add);
            }
            if (r.distance() == PathType.SYS && !leftOut) {
                NicPort p = r.ports().get(0);
                problems.add(new Rail.Problem(RailVerdict.NO_NIC_NEAR, null, "its nearest NIC, " + r.nic()
                        + ", is across the CPU sockets (SYS: GPU on NUMA node " + numa(r.gpu().numaNode()) + ", NIC on "
                        + numa(p.numaNode()) + "): GPUDirect RDMA is off at NCCL's default level and the bytes cross"
                        + " the inter-socket link"));
            }
            problems.sort(Comparator.comparing(Rail.Problem::verdict));
            RailVerdict v = problems.isEmpty() ? RailVerdict.OK : problems.get(0).verdict();
            out.add(r.judged(v, problems));
        }
        return out;
    }

    /**
     * The setting leaves out the GPU's nearest NIC and NCCL settles for a farther one (or none): "excluded". A setting
     * that only drops a tie (a storage NIC as near as the rail's own) leaves the rail as it was.
     *
     * @param nearest how far the GPU's NIC would be with no setting
     */
    static List<Rail.Problem> excluded(Rail r, PathType nearest, HostSnapshot s) {
        boolean farther = r.ports().isEmpty()
                || r.distance() != null && nearest != null && r.distance().compareTo(nearest) > 0;
        if (r.excluded().isEmpty() || !farther) {
            return List.of();
        }
        NicPort p = r.excluded().get(0);
        return List.of(new Rail.Problem(RailVerdict.EXCLUDED, null, setting(s, p) + " leaves out "
                + String.join(", ", r.excluded().stream().map(NicPort::name).toList()) + ", this GPU's nearest"
                + (nearest == null ? "" : " (" + nearest + ")") + ": NCCL never uses " + (r.excluded().size() > 1 ? "them"
                : "it") + elsewhere(r)));
    }

    /**
     * A GPU that shares a farther NIC with other rails while every other rail has its own, nearer one: the NIC of its
     * own is missing from the PCI bus (dead, unseated, hidden from the container) or, when a port of the rails' model is
     * no GPU's rail, seated in a slot away from its GPU.
     */
    private static Optional<Rail.Problem> noNicOfItsOwn(Rail r, List<Rail> rails, List<NicPort> others) {
        if (r.ports().isEmpty() || r.distance() == null || r.distance() == PathType.SYS) {
            return Optional.empty();
        }
        List<Rail> partners = rails.stream().filter(k -> k != r && shares(k, r)).toList();
        List<Rail> owners = rails.stream().filter(k -> k != r && !partners.contains(k) && !k.ports().isEmpty()).toList();
        boolean ownAndNearer = owners.stream().allMatch(k -> rails.stream().noneMatch(x -> x != k && shares(x, k))
                && k.distance() != null && k.distance().compareTo(r.distance()) < 0);
        if (partners.isEmpty() || owners.size() < 2 || !ownAndNearer) {
            return Optional.empty();
        }
        NicPort model = owners.get(0).ports().get(0);
        List<String> spare = others.stream().filter(p -> p.model() != null && p.model().equals(model.model())
                && String.valueOf(p.linkLayer()).equals(String.valueOf(model.linkLayer()))).map(NicPort::name).toList();
        return Optional.of(new Rail.Problem(RailVerdict.NO_NIC_NEAR, null, "no NIC of its own: NCCL pairs it with "
                + r.nic() + " (" + r.distance() + "), which rail" + (partners.size() > 1 ? "s " : " ")
                + join(partners.stream().map(Rail::rail).toList()) + " also use" + (partners.size() > 1 ? "" : "s")
                + ", while the other " + owners.size() + " rails each have their own (" + owners.get(0).distance() + "): "
                + (spare.isEmpty() ? "its own NIC is likely missing from the PCI bus"
                : String.join(", ", spare) + ", of the same model, is no GPU's rail: its NIC in a slot on the other"
                + " socket or switch?")));
    }

    private static boolean shares(Rail a, Rail b) {
        return a.ports().stream().anyMatch(b.ports()::contains);
    }

    /** Where NCCL sends the GPU's traffic instead, when it is not the rail's own NIC. */
    private static String elsewhere(Rail r) {
        if (r.ncclUses().isEmpty()) {
            return "; NCCL has no other NIC for this GPU";
        }
        if (r.nic() != null && r.ncclUses().equals(List.of(r.nic()))) {
            return "";
        }
        return "; NCCL moves this GPU's traffic onto " + String.join(", ", r.ncclUses()) + " ("
                + (r.ncclDistance() == null ? "" : r.ncclDistance() + ", ") + "or over NVLink to their GPUs with PXN)" + (r.sharedWith().isEmpty() ? "" : ", shared with rail"
                + (r.sharedWith().size() > 1 ? "s " : " ") + join(r.sharedWith()));
    }

    private static String join(List<Integer> l) {
        return String.join(", ", l.stream().map(String::valueOf).toList());
    }

    /**
     * Below the best active sibling of the same model and link layer, or below the fabric the site declared: both
     * numbers said. At least one sibling must run faster: a host whose rails all run at one rate is judged only
     * against the catalog.
     */
    private static Optional<Rail.Problem> trainedDown(NicPort p, Set<NicPort> railPorts, HostSnapshot s) {
        if (!p.rate().known()) {
            return Optional.empty();
        }
        NicPort best = null;
        int siblings = 0;
        for (NicPort q : railPorts) {
            if (q == p || !q.up() || !q.rate().known() || !q.transport().equals(p.transport())
                    || !String.valueOf(q.linkLayer()).equalsIgnoreCase(String.valueOf(p.linkLayer()))
                    || q.model() != null && p.model() != null && !q.model().equals(p.model())) {
                continue;
            }
            siblings++;
            if (best == null || q.rate().gbps() > best.rate().gbps()) {
                best = q;
            }
        }
        Optional<SiteLink> site = site(p, s);
        boolean belowSiblings = best != null && p.rate().gbps() < best.rate().gbps() * (1 - 1e-9);
        boolean belowSite = site.isPresent() && p.rate().gbps() < site.get().gbps() * (1 - 1e-9);
        if (!belowSiblings && !belowSite) {
            return Optional.empty();
        }
        double against = belowSiblings ? best.rate().gbps() : site.get().gbps();
        StringBuilder why = new StringBuilder(p.name() + ": " + p.rate().text());
        if (belowSiblings) {
            why.append(", siblings ").append(best.rate().text()).append(" (").append(siblings).append(siblings == 1
                    ? " other port)" : " other ports)");
        }
        if (belowSite) {
            why.append(belowSiblings ? "; " : ", ").append("the fabric declared ").append(site.get().fabric()).append(" (")
                    .append(LinkRates.Rate.text(site.get().gbps())).append(", ").append(site.get().source()).append(")");
        }
        why.append(": this rail caps every collective at ").append(share(p.rate().gbps() / against));
        return Optional.of(new Rail.Problem(RailVerdict.TRAINED_DOWN, p.name(), why.toString()));
    }

    /** "about half", "about a quarter", "about 75%". */
    static String share(double f) {
        if (Math.abs(f - 0.5) < 0.05) {
            return "about half";
        }
        if (Math.abs(f - 0.25) < 0.04) {
            return "about a quarter";
        }
        return "about " + Math.round(f * 100) + "% of its siblings'";
    }

    /**
     * The catalog's site line for this port: one that names its RDMA device ("mlx5_3"), the port ("mlx5_3:1") or its
     * interface ("ibp154s0"), by name or prefix ("mlx5_*"), or a subnet of the interface's address.
     */
    static Optional<SiteLink> site(NicPort p, HostSnapshot s) {
        List<String> names = Arrays.asList(p.device(), p.name(), p.netdev());
        List<String> addresses = p.netdev() == null ? List.of() : LinkRates.addresses(s.link(p.netdev()));
        for (SiteLink l : s.siteLinks()) {
            if (l.covers(names, addresses)) {
                return Optional.of(l);
            }
        }
        return Optional.empty();
    }

    /**
     * The link layer most rail ports run; null when they all agree or none says. On a tie the odd ones are the
     * Ethernet ports: a GPU fabric that mixes the two is an InfiniBand one with ports flipped to Ethernet.
     */
    private static String majorityLayer(Set<NicPort> ports) {
        Map<String, Long> count = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (NicPort p : ports) {
            if (p.linkLayer() != null && p.up()) {
                count.merge(p.linkLayer(), 1L, Long::sum);
            }
        }
        if (count.size() < 2) {
            return null;
        }
        long ib = count.getOrDefault("InfiniBand", 0L);
        long eth = count.getOrDefault("Ethernet", 0L);
        return ib >= eth ? "InfiniBand" : "Ethernet";
    }

    private static String describe(String layer) {
        return "Ethernet".equalsIgnoreCase(layer) ? "Ethernet (RoCE)" : layer;
    }

    private static String setting(HostSnapshot s, NicPort p) {
        return s.setting(p.filter()).map(HostSnapshot.Setting::evidence)
                .orElse(p.filter() + " unset (NCCL's default choice)");
    }

    private static String numa(Integer n) {
        return n == null ? "unknown" : String.valueOf(n);
    }
}
