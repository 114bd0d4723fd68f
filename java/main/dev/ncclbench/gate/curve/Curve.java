package dev.ncclbench.gate.curve;

import dev.ncclbench.backend.Backends;
import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.diagnosis.FabricCatalog;
import dev.ncclbench.spec.Capability;
import dev.ncclbench.baseline.Quantiles;
import dev.ncclbench.baseline.SizeKey;
import dev.ncclbench.baseline.SizeSamples;
import dev.ncclbench.diagnosis.FabricEntry;
import dev.ncclbench.spec.Sizes;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The evidence of the curve check: one run's busbw and latency against size, per collective, at the median
 * per-call time (robust to the odd slow iteration), with the fabric the job should reach and the socket floor.
 *
 * @param fabric      the expected fabric (--fabric, or the NIC's rate for the socket backend)
 * @param socketFloor what sockets reach on the same interface, GB/s
 * @param nodes       hosts in the run: inter-node fabrics judge multi-node runs, NVLink and PCIe single-node ones
 * @param socketRun   the run's bytes went over TCP sockets (the socket backend): any fabric named applies, and one
 *                    whose healthy path is not sockets is the degraded path the run took
 */
public record Curve(Map<String, List<Point>> byCollective, Optional<FabricEntry> fabric, OptionalDouble socketFloor,
                    int nodes, boolean socketRun, int iters) {
    /** nccl-tests' default -n: the timed iterations a time is the mean of when the run does not say. */
    public static final int DEFAULT_ITERS = 20;

    public Curve(Map<String, List<Point>> byCollective, Optional<FabricEntry> fabric, OptionalDouble socketFloor,
                 int nodes) {
        this(byCollective, fabric, socketFloor, nodes, false);
    }

    public Curve(Map<String, List<Point>> byCollective, Optional<FabricEntry> fabric, OptionalDouble socketFloor,
                 int nodes, boolean socketRun) {
        this(byCollective, fabric, socketFloor, nodes, socketRun, DEFAULT_ITERS);
    }

    /** Sizes from here on are bandwidth-bound: what a healthy path is judged at (RouteClassifier's bound). */
    public static final long LARGE_BYTES = 64L << 20;

    /** One size: the median per-call time in us and busbw at it in GB/s (NaN when unknown). */
    public record Point(long size, double medianUs, double busbw) {
        public String sizeText() {
            return Sizes.human(size);
        }
    }

    public static Curve of(Collection<SizeSamples> samples, Optional<FabricEntry> fabric, OptionalDouble floor,
                           int nodes) {
        return of(samples, fabric, floor, nodes, false);
    }

    public static Curve of(Collection<SizeSamples> samples, Optional<FabricEntry> fabric, OptionalDouble floor,
                           int nodes, boolean socketRun) {
        return of(samples, fabric, floor, nodes, socketRun, DEFAULT_ITERS);
    }

    /** @param iters the run's -n: a one-off cost shows in a size's mean divided by it */
    public static Curve of(Collection<SizeSamples> samples, Optional<FabricEntry> fabric, OptionalDouble floor,
                           int nodes, boolean socketRun, int iters) {
        Map<String, List<Point>> out = new LinkedHashMap<>();
        // -d all / -o all: each type and op is a curve of its own (int8 and double at one size are different calls)
        boolean several = samples.stream().map(s -> s.key().type() + " " + s.key().redop()).distinct().count() > 1;
        for (SizeSamples s : samples) {
            SizeKey k = s.key();
            if (k.root() > 0 || k.inPlace()) {
                continue; // one curve per collective, out of place (nccl-tests' headline): rooted ones at their first root
            }
            double m = Quantiles.median(s.pooled());
            String name = several ? k.collective() + " " + k.type() + " " + k.redop() : k.collective();
            out.computeIfAbsent(name, c -> new ArrayList<>()).add(new Point(k.size(), m, s.busbwAt(m)));
        }
        out.values().forEach(l -> l.sort((a, b) -> Long.compare(a.size(), b.size())));
        return new Curve(out, fabric, floor, nodes, socketRun, iters > 0 ? iters : DEFAULT_ITERS);
    }

    /**
     * A socket run on one node crosses no NIC: its ranks share the host's cores (4 ranks on 2 here), so its curve is
     * the scheduler's and the memory hierarchy's (busbw falls as buffers leave the caches; the first sizes of a sweep
     * wait for CPUs), not a path's. The shape rules, which judge paths, leave it alone.
     */
    public boolean hostOnly() {
        return socketRun && nodes == 1;
    }

    /** The fabric when it applies to this run's topology (an inter-node NIC for several nodes, else intra-node). */
    public Optional<FabricEntry> applicableFabric() {
        return fabric.filter(f -> f.interNode() == (nodes > 1) || f.socketPath() || socketRun);
    }

    /**
     * The fabric of a socket run's single NIC from its link rate (an eth-* line of the catalog whose line rate is
     * the NIC's); empty when the rate is not known or several NICs were used.
     */
    public static Optional<FabricEntry> inferFabric(Fingerprint fp,
                                                    FabricCatalog catalog) {
        if (!Backends.capabilitiesOf(fp.backend()).contains(Capability.SOCKET_INTERFACE) || fp.nics().size() != 1) {
            return Optional.empty();
        }
        String rate = fp.nics().values().iterator().next();
        if (!rate.endsWith(" Mb/s")) {
            return Optional.empty();
        }
        double gbps = Double.parseDouble(rate.substring(0, rate.length() - 5)) / 8000.0;
        return catalog.entries().stream().filter(e -> e.kind().equals("ethernet")
                && Math.abs(e.lineGBps() - gbps) <= gbps * 0.01).findFirst();
    }

    static String fmt(String f, Object... args) {
        return String.format(Locale.ROOT, f, args);
    }

    static String sizes(List<Point> points) {
        if (points.size() == 1) {
            return points.get(0).sizeText();
        }
        return points.size() <= 4 ? String.join(", ", points.stream().map(Point::sizeText).toList())
                : points.get(0).sizeText() + " - " + points.get(points.size() - 1).sizeText() + " ("
                + points.size() + " sizes)";
    }
}
