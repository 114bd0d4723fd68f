package dev.ncclbench.fleet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The search as one document: what the JSON holds and what the HTML, JUnit and Prometheus files are drawn from. */
public record FleetDocument(List<String> hosts, SearchOptions search, FleetSettings settings, String backend,
                            String floorSource, SearchResult result, FleetBaseline baseline) {
    public static final String KIND = "ncclbench.fleet";
    /** 2: kind and schema_version replace "schema": "ncclbench-fleet/1". */
    public static final int SCHEMA_VERSION = 2;

    /** Without --baseline. */
    public FleetDocument(List<String> hosts, SearchOptions search, FleetSettings settings, String backend,
                         String floorSource, SearchResult result) {
        this(hosts, search, settings, backend, floorSource, result, null);
    }

    public Verdicts verdicts() {
        return result.verdicts();
    }

    /**
     * The nodes to drain, as the scheduler knows them: the name without the "#rank" that tells apart processes
     * sharing a name, each once; a rank whose name nobody knows ("rank 7") is left out (the JSON still names it).
     */
    public List<String> drain() {
        return verdicts().badNodes().stream().map(v -> nodeName(hosts.get(v.rank()))).filter(n -> !n.startsWith("rank "))
                .distinct().toList();
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

    /** The JSON tree (docs/fleet.md describes every field). */
    public Map<String, Object> json() {
        Map<String, Object> d = new LinkedHashMap<>();
        Verdicts v = verdicts();
        d.put("kind", KIND);
        d.put("schema_version", SCHEMA_VERSION);
        d.put("verdict", v.anyBad() ? "bad" : v.undecided().isEmpty() ? "good" : "good-with-undecided");
        d.put("backend", backend);
        d.put("nodes", hosts.size());
        d.put("survey", search.survey().label);
        d.put("group_size", search.groupSize());
        d.put("margin", search.margin());
        d.put("floor_gbps", search.floorGBps().isPresent() ? search.floorGBps().getAsDouble() : null);
        d.put("floor_source", floorSource);
        d.put("judgement", judgement(floorSource, baseline));
        BaselineJudge bj = result.evidence().baseline();
        if (baseline != null && bj != null) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("name", baseline.name());
            b.put("recorded_at", baseline.createdAt());
            b.put("pairs_recorded", baseline.pairs().size());
            b.put("results_judged", bj.judged);
            b.put("results_without_baseline", bj.without);
            d.put("baseline", b);
        }
        d.put("sizes_bytes", settings.sizes());
        d.put("collectives", settings.collectives());
        d.put("iters", settings.iters());
        d.put("round_limit_s", settings.roundSeconds());
        d.put("seed", search.seed());
        d.put("rounds_used", result.rounds());
        d.put("max_rounds", search.maxRounds());
        d.put("stop_reason", result.stopReason());
        d.put("drain", drain());
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (NodeVerdict n : v.nodes()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("rank", n.rank());
            x.put("host", hosts.get(n.rank()));
            x.put("verdict", n.status().label);
            x.put("reason", oneLine(n.reason()));
            nodes.add(x);
        }
        d.put("node_verdicts", nodes);
        List<Map<String, Object>> links = new ArrayList<>();
        for (LinkVerdict l : v.links()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("a", hosts.get(l.a()));
            x.put("b", hosts.get(l.b()));
            x.put("verdict", l.status().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
            x.put("busbw_gbps", finite(l.busbw()));
            x.put("ratio", finite(l.ratio()));
            x.put("reason", l.reason());
            links.add(x);
        }
        d.put("link_verdicts", links);
        d.put("links_measured", v.linksMeasured());
        d.put("links_total", linksTotal());
        d.put("undecided", v.undecided());
        d.put("rounds", rounds());
        if (hosts.size() <= FleetHtml.HEAT_MAP_MAX) {
            Map<String, Object> matrix = new LinkedHashMap<>();
            matrix.put("hosts", hosts);
            matrix.put("busbw_gbps", matrix(false));
            matrix.put("ratio", matrix(true));
            d.put("matrix", matrix);
        } else {
            d.put("matrix", null); // N x N above 64 nodes is megabytes nobody reads: link_verdicts hold every pair
        }
        return d;
    }

    private List<Map<String, Object>> rounds() {
        Evidence e = result.evidence();
        List<Map<String, Object>> out = new ArrayList<>();
        for (RoundPlan p : result.plans()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("round", p.round());
            List<Map<String, Object>> groups = new ArrayList<>();
            for (GroupMeasurement m : e.measurements()) {
                if (m.round() != p.round()) {
                    continue;
                }
                Map<String, Object> g = new LinkedHashMap<>();
                g.put("members", m.group().members().stream().map(hosts::get).toList());
                g.put("purpose", m.group().purpose().label);
                g.put("load", m.load());
                g.put("busbw_gbps", finite(m.busbw()));
                g.put("ratio", e.usable(m) ? e.ratio(m) : null);
                g.put("slow", e.usable(m) ? e.slow(m) : null);
                g.put("error", m.error());
                groups.add(g);
            }
            r.put("groups", groups);
            out.add(r);
        }
        return out;
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
