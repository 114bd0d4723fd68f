package dev.ncclbench.diagnosis;

import dev.ncclbench.finding.Severity;
import dev.ncclbench.diagnosis.facts.RouteKind;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.results.Measurement;
import dev.ncclbench.results.RouteVerdict;
import dev.ncclbench.results.ResultRow;
import dev.ncclbench.spec.Sizes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The path verdict for each row of a sweep, from the run's own NCCL log when there is one and from busbw
 * against the fabric catalog and the socket floor. One instance per run: the log is diagnosed once.
 *
 * <pre>
 * RouteClassifier pc = new RouteClassifier(nranks, log, socketFloor, fabric);
 * rows = rows.stream().map(r -> r.withVerdict(pc.classify(r))).toList();
 * pc.summaryLines(rows).forEach(out::println);      // after the table
 * </pre>
 */
public final class RouteClassifier {
    /** Below this size busbw is latency-bound and says nothing about the path. */
    public static final long LATENCY_BOUND_BYTES = 64L << 20;
    /** busbw within this factor of the socket floor is what sockets reach. */
    static final double SOCKET_FLOOR_MARGIN = 1.25;
    /** Under this fraction of an RDMA line rate, sockets are the likelier explanation than host staging. */
    static final double SOCKET_FRACTION = 0.35;

    private final int nranks;
    private final Optional<Diagnosis> diagnosis;
    private final OptionalDouble socketFloorGBps;
    private final Optional<FabricEntry> fabric;
    /** One rank's ceiling: what its GPU can copy. */
    private final Optional<CopyLimit> copyLimit;

    public RouteClassifier(int nranks, Optional<NcclLogEvidence> log, OptionalDouble socketFloorGBps,
                          Optional<FabricEntry> expectedFabric) {
        this(nranks, log, socketFloorGBps, expectedFabric, Optional.empty());
    }

    public RouteClassifier(int nranks, Optional<NcclLogEvidence> log, OptionalDouble socketFloorGBps,
                          Optional<FabricEntry> expectedFabric, Optional<CopyLimit> copyLimit) {
        this.nranks = nranks;
        this.diagnosis = log.map(Diagnoser::diagnose);
        this.socketFloorGBps = socketFloorGBps;
        this.fabric = expectedFabric;
        this.copyLimit = copyLimit;
    }

    /** One-shot form; a sweep with many rows should keep one instance instead. */
    public static RouteVerdict classify(ResultRow row, int nranks, Optional<NcclLogEvidence> log,
                                       OptionalDouble socketFloorGBps, Optional<FabricEntry> expectedFabric) {
        return new RouteClassifier(nranks, log, socketFloorGBps, expectedFabric).classify(row);
    }

    /** The socket backend's rows: the path is known, the interface names come from its own binding. */
    public static RouteVerdict socketBackend(String interfaces) {
        return new RouteVerdict("socket", "certain", "the socket backend moves bytes over TCP on " + interfaces,
                List.of("backend socket"));
    }

    public Optional<Diagnosis> diagnosis() {
        return diagnosis;
    }

    public RouteVerdict classify(ResultRow row) {
        double busbw = busbw(row);
        List<String> evidence = new ArrayList<>();
        String numbers = numbers(row, busbw);
        if (nranks <= 1) {
            return new RouteVerdict("loopback", "certain", "one rank: no data leaves the GPU", List.of(numbers));
        }
        if (diagnosis.isPresent() && diagnosis.get().path() != RouteKind.UNKNOWN) {
            Diagnosis d = diagnosis.get();
            evidence.addAll(d.evidence().stream().limit(3).toList());
            evidence.add(numbers);
            String reason = d.reason();
            if (row.sizeBytes() >= LATENCY_BOUND_BYTES && fabric.isPresent()
                    && (d.path() == RouteKind.RDMA_GDR || d.path() == RouteKind.P2P || d.path() == RouteKind.NVLS
                    || d.path() == RouteKind.PLUGIN_NET)
                    && busbw < fabric.get().healthyMinGBps()) {
                reason += " busbw is under the healthy band of " + fabric.get().id()
                        + ": suspect the link, the placement or the baseline, not the transport.";
            }
            return new RouteVerdict(d.path().id, d.confidence(), reason, List.copyOf(evidence));
        }
        evidence.add(numbers);
        if (row.sizeBytes() < LATENCY_BOUND_BYTES) {
            return new RouteVerdict("unknown", "unknown", "at " + row.sizeBytes()
                    + " B busbw is latency-bound and does not show the path", evidence);
        }
        if (socketFloorGBps.isPresent() && busbw <= socketFloorGBps.getAsDouble() * SOCKET_FLOOR_MARGIN) {
            evidence.add(fmt("socket floor %.2f GB/s on the same interface", socketFloorGBps.getAsDouble()));
            return new RouteVerdict("socket", "likely", "busbw is at the socket floor: the bytes most likely"
                    + " went over TCP sockets", evidence);
        }
        if (fabric.isEmpty()) {
            return new RouteVerdict("unknown", "unknown", "no NCCL log and no expected fabric to compare busbw"
                    + " with (pass --fabric or collect NCCL_DEBUG=INFO)", evidence);
        }
        FabricEntry f = fabric.get();
        double frac = busbw / f.lineGBps();
        evidence.add(fmt("%.0f%% of %s line rate %.2f GB/s (healthy %.0f-%.0f%%)", frac * 100, f.id(),
                f.lineGBps(), f.healthyMin() * 100, f.healthyMax() * 100));
        boolean healthy = frac >= f.healthyMin();
        return switch (f.path()) {
            case "rdma" -> healthy
                    ? new RouteVerdict("rdma", "likely", "busbw is healthy for " + f.id() + "; numbers alone cannot"
                    + " tell GPUDirect RDMA from host-staged RDMA (the NCCL log can)", evidence)
                    : frac >= SOCKET_FRACTION || socketFloorGBps.isPresent()
                    ? new RouteVerdict("rdma-host-staged", "likely", "busbw is above sockets but under healthy "
                    + f.id() + ": RDMA staged through host memory, or a degraded link; the NCCL log can tell",
                    evidence)
                    : new RouteVerdict("socket", "likely", "busbw is under " + (int) (SOCKET_FRACTION * 100)
                    + "% of " + f.id() + ": what TCP sockets reach, not RDMA", evidence);
            case "socket" -> new RouteVerdict("socket", healthy ? "likely" : "unknown", healthy
                    ? "busbw matches TCP sockets on " + f.id() : "busbw is under what sockets reach on " + f.id()
                    + ": a slower link, a busy host or a different NIC", evidence);
            default -> healthy
                    ? new RouteVerdict(f.path(), "likely", "busbw is healthy for " + f.id(), evidence)
                    : new RouteVerdict("unknown", "unknown", "busbw is under healthy " + f.id()
                    + ": P2P degraded or SHM in use; the NCCL log can tell", evidence);
        };
    }

    /** The few lines printed after the table: the path, the largest size against the catalog, the fixes. */
    public List<String> summaryLines(List<ResultRow> rows) {
        List<String> out = new ArrayList<>();
        ResultRow largest = rows.stream().max((a, b) -> Long.compare(a.sizeBytes(), b.sizeBytes())).orElse(null);
        RouteVerdict v = largest == null ? null : largest.verdict() != null ? largest.verdict() : classify(largest);
        if (v != null && nranks <= 1) {
            out.add("# Path: " + v.path() + " (" + v.confidence() + "): " + v.reason());
            out.addAll(oneRank(largest));
        } else if (v != null) {
            out.add("# Path: " + v.path() + " (" + v.confidence() + "): " + v.reason());
            out.add("# At " + largest.sizeBytes() + " B: " + v.evidence().stream()
                    .filter(s -> s.startsWith("busbw")).findFirst().orElse(numbers(largest, busbw(largest)))
                    + fabric.map(f -> fmt(" = %.0f%% of %s (healthy %.0f-%.0f%%)", busbw(largest) / f.lineGBps()
                    * 100, f.id(), f.healthyMin() * 100, f.healthyMax() * 100)).orElse(""));
        } else if (diagnosis.isPresent()) {
            out.add("# Path: " + diagnosis.get().path().id + " (" + diagnosis.get().confidence() + "): "
                    + diagnosis.get().reason());
        }
        diagnosis.ifPresent(d -> d.findings(Severity.WARNING).stream().limit(3).forEach(f -> {
            out.add("# " + f.ruleId() + " (" + f.severity().name().toLowerCase(Locale.ROOT) + "): " + f.title());
            if (!f.remedy().isEmpty()) {
                out.add("#   fix: " + f.remedy().get(0));
            }
        }));
        if (diagnosis.isEmpty()) {
            out.add("# No NCCL log for this run: the verdict rests on busbw alone.");
        }
        return out;
    }

    /**
     * One rank moves nothing between GPUs, so busbw is 0 by nccl-tests' definition: what tells a person something is
     * algbw against what the GPU can copy, and that in place nothing moves at all.
     */
    private List<String> oneRank(ResultRow largest) {
        List<String> out = new ArrayList<>();
        double algbw = largest.outOfPlace() == null ? Double.NaN : largest.outOfPlace().algbw();
        String size = Sizes.human(largest.sizeBytes());
        if (Double.isFinite(algbw) && algbw > 0) {
            out.add("# At " + size + ": algbw " + fmt("%.1f GB/s", algbw) + " out of place = " + copyLimit
                    .map(c -> c.describe(algbw)).orElse("(the GPU's copy limit is unknown: no NVML figures, model not"
                            + " listed)") + "; busbw is 0 with one rank: nothing crosses between GPUs");
        }
        out.add("# In place on one rank no data moves: those rows time the host's launch and wait; their algbw is not"
                + " a bandwidth");
        return out;
    }

    static double busbw(ResultRow row) {
        return Math.max(bw(row.outOfPlace()), bw(row.inPlace()));
    }

    private static double bw(Measurement m) {
        return m == null || Double.isNaN(m.busbw()) ? 0 : m.busbw();
    }

    private static String numbers(ResultRow row, double busbw) {
        return fmt("busbw %.2f GB/s at %d B", busbw, row.sizeBytes());
    }

    private static String fmt(String f, Object... args) {
        return String.format(Locale.ROOT, f, args);
    }
}
