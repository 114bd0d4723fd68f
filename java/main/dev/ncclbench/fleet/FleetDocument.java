package dev.ncclbench.fleet;

import java.util.LinkedHashSet;
import java.util.List;

/** The search as one document: what the JSON holds and what the HTML, JUnit and Prometheus files are drawn from. */
public record FleetDocument(List<String> hosts, SearchOptions search, FleetSettings settings, String backend,
                            String floorSource, SearchResult result, FleetBaseline baseline, RailResult rails) {
    public static final String KIND = "ncclbench.fleet";
    /** 2: kind and schema_version replace "schema": "ncclbench-fleet/1". */
    public static final int SCHEMA_VERSION = 2;

    /** Without --baseline. */
    public FleetDocument(List<String> hosts, SearchOptions search, FleetSettings settings, String backend,
                         String floorSource, SearchResult result) {
        this(hosts, search, settings, backend, floorSource, result, null, null);
    }

    /** Without a rail round (no --rails). */
    public FleetDocument(List<String> hosts, SearchOptions search, FleetSettings settings, String backend,
                         String floorSource, SearchResult result, FleetBaseline baseline) {
        this(hosts, search, settings, backend, floorSource, result, baseline, null);
    }

    /** Exit 6 territory: a node, a link or a rail is bad. */
    public boolean anyBad() {
        return verdicts().anyBad() || rails != null && !rails.bad().isEmpty();
    }

    /** The bad rails of {@code rank}, in rail order (none without a rail round). */
    List<RailVerdict> badRails(int rank) {
        return rails == null ? List.of() : rails.bad().stream().filter(v -> v.rank() == rank).toList();
    }

    public Verdicts verdicts() {
        return result.verdicts();
    }

    /**
     * The nodes to drain, as the scheduler knows them: the name without the "#rank" that tells apart processes
     * sharing a name, each once; a rank whose name nobody knows ("rank 7") is left out (the JSON still names it).
     */
    public List<String> drain() {
        return badRanks().stream().filter(r -> !FleetRun.unnamed(r).equals(hosts.get(r)))
                .map(r -> nodeName(hosts.get(r))).distinct().toList();
    }

    /** The ranks to drain: slow or unreachable nodes, then nodes good as a whole with a slow or down rail. */
    List<Integer> badRanks() {
        LinkedHashSet<Integer> out = new LinkedHashSet<>();
        verdicts().badNodes().forEach(v -> out.add(v.rank()));
        if (rails != null) {
            rails.bad().forEach(v -> out.add(v.rank()));
        }
        return List.copyOf(out);
    }

    static String nodeName(String host) {
        int hash = host.lastIndexOf('#');
        return hash > 0 && host.substring(hash + 1).chars().allMatch(Character::isDigit) ? host.substring(0, hash) : host;
    }

    /** One line, as `scontrol update ... reason=` takes it. */
    static String oneLine(String reason) {
        return reason.replaceAll("\\s+", " ").strip();
    }

    public int linksTotal() {
        int n = hosts.size();
        return n * (n - 1) / 2;
    }

    /**
     * The pair matrix: per pair, the last usable result that ran alone, else the last usable one; null where a pair
     * never ran. Symmetric.
     */
    public Double[][] matrix(boolean ratio) {
        int n = hosts.size();
        Double[][] m = new Double[n][n];
        Evidence e = result.evidence();
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                List<GroupMeasurement> ms = e.link(a, b);
                if (ms.isEmpty()) {
                    continue;
                }
                List<GroupMeasurement> alone = ms.stream().filter(x -> x.load() == 1).toList();
                GroupMeasurement pick = (alone.isEmpty() ? ms : alone).get((alone.isEmpty() ? ms : alone).size() - 1);
                double v = ratio ? e.ratio(pick) : pick.failed() ? 0 : pick.busbw();
                m[a][b] = v;
                m[b][a] = v;
            }
        }
        return m;
    }

    /** fleet.json's content (docs/fleet.md describes every field), without the drain policy's account. */
    public FleetJson.Document json() {
        return FleetJson.of(this);
    }

    /** How results were judged, in one sentence that names the limit of a relative judgement. */
    static String judgement(String floorSource, FleetBaseline baseline) {
        if (baseline != null) {
            return "judged against baseline " + baseline.name() + " (recorded " + baseline.createdAt() + "): each pair with"
                    + " a recorded rate by the gate's test (Mann-Whitney U and bootstrap interval, 5% tolerance);"
                    + " a pair with no recorded rate (no baseline for this pair) falls back to "
                    + (floorSource != null ? "below " + floorSource + " or " : "") + "the margin of the best results of this run";
        }
        return floorSource != null ? "absolute and relative: below " + floorSource + " (shared by the pairs a node ran at"
                + " once) or below the margin of the best results of this run"
                : "relative only: each result against the best results of this run; if every pair is slow, all look good"
                + " (give --fabric for an absolute floor)";
    }

    static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
