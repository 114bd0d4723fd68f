package dev.ncclbench.fleet;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * fleet.json (docs/fleet.md describes every field): {@link Document}, built from a {@link FleetDocument}. The search
 * keeps ranks and measurements; the file names hosts and spells out each verdict, so it is its own record.
 */
public final class FleetJson {
    private FleetJson() {
    }

    /**
     * The whole file, in named groups written flat in this order (each group's fields in its own order): what the file
     * is, how the search judged, what each group measured, how the search ended, the drain list, what was found, and the
     * drain policy's account ({@link #withDrainAccount}), left out until it is given.
     */
    @JsonPropertyOrder({"kind", "schema_version", "verdict", "backend", "nodes", "search", "measured", "stop", "drain",
            "found", "drain_account"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Document(String kind, int schemaVersion, String verdict, String backend, int nodes,
                           @JsonUnwrapped SearchJudged search, @JsonUnwrapped Measured measured, @JsonUnwrapped Stop stop,
                           List<String> drain, @JsonUnwrapped Found found, @JsonUnwrapped DrainAccount drainAccount) {

        /** With whether the rendezvous was authenticated, the drain list as written, and what it withheld and why. */
        Document withDrainAccount(boolean authenticated, DrainPolicy.Drain d) {
            return new Document(kind, schemaVersion, verdict, backend, nodes, search, measured, stop, d.names(), found,
                    new DrainAccount(authenticated, d.written() && d.withheld().isEmpty() ? null
                            : List.copyOf(d.withheld().keySet()), d.because()));
        }
    }

    /** How the search planned and judged: --survey, --group-size, --margin, --fabric's floor, and the baseline. */
    @JsonPropertyOrder({"survey", "group_size", "margin", "floor_gbps", "floor_source", "judgement", "baseline"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SearchJudged(String survey, int groupSize, double margin, Double floorGbps, String floorSource,
                               String judgement, @JsonInclude(JsonInclude.Include.NON_NULL) Baseline baseline) {
    }

    /** What each group measured, the round's limit, and the seed of the pairing. */
    @JsonPropertyOrder({"sizes_bytes", "collectives", "iters", "round_limit_s", "seed"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Measured(List<Long> sizesBytes, List<String> collectives, int iters, int roundLimitS, long seed) {
    }

    /** How the search ended: the rounds it used of --max-rounds, and why it stopped. */
    @JsonPropertyOrder({"rounds_used", "max_rounds", "stop_reason"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Stop(int roundsUsed, int maxRounds, String stopReason) {
    }

    /** What the search found: a verdict per node and link, what it could not decide, every round, the matrix, the rails. */
    @JsonPropertyOrder({"node_verdicts", "link_verdicts", "links_measured", "links_total", "undecided", "rounds", "matrix",
            "rails"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Found(List<Node> nodeVerdicts, List<Link> linkVerdicts, int linksMeasured, int linksTotal,
                        List<String> undecided, List<Round> rounds,
                        // N x N above 64 nodes is megabytes nobody reads: link_verdicts hold every pair
                        Matrix matrix,
                        // only with --rails: the rail round and a verdict per node and rail
                        @JsonInclude(JsonInclude.Include.NON_NULL) Rails rails) {
    }

    /** Whether the rendezvous was authenticated, and which nodes the drain list withheld and why (null: none). */
    @JsonPropertyOrder({"rendezvous_authenticated", "drain_withheld", "drain_withheld_because"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record DrainAccount(boolean rendezvousAuthenticated,
                               @JsonInclude(JsonInclude.Include.NON_NULL) List<String> drainWithheld,
                               @JsonInclude(JsonInclude.Include.NON_NULL) String drainWithheldBecause) {
    }

    /** The fleet baseline judged against (--baseline). */
    @JsonPropertyOrder({"name", "recorded_at", "pairs_recorded", "results_judged", "results_without_baseline"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Baseline(String name, String recordedAt, int pairsRecorded, int resultsJudged,
                           int resultsWithoutBaseline) {
    }

    @JsonPropertyOrder({"rank", "host", "verdict", "reason"})
    public record Node(int rank, String host, String verdict, String reason) {
    }

    @JsonPropertyOrder({"a", "b", "verdict", "busbw_gbps", "ratio", "reason"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Link(String a, String b, String verdict, Double busbwGbps, Double ratio, String reason) {
    }

    @JsonPropertyOrder({"round", "groups"})
    public record Round(int round, List<Group> groups) {
    }

    /** One group measured in a round; ratio and slow are null when the result is unusable. */
    @JsonPropertyOrder({"members", "purpose", "load", "busbw_gbps", "ratio", "slow", "error"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Group(List<String> members, String purpose, int load, Double busbwGbps, Double ratio, Boolean slow,
                        String error) {
    }

    /**
     * The rail round: how rails were judged, how many rounds it took, each node's rails as it reported them, and a
     * verdict per node and rail.
     */
    @JsonPropertyOrder({"judgement", "margin", "rounds_used", "nodes", "verdicts"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Rails(String judgement, double margin, int roundsUsed, List<RailNode> nodes, List<Rail> verdicts) {
    }

    /** A node's rails as it reported them when it joined, in rail order. */
    @JsonPropertyOrder({"host", "rails"})
    public record RailNode(String host, List<RailName> rails) {
    }

    @JsonPropertyOrder({"nic", "ifname", "address", "down"})
    public record RailName(String nic, String ifname, String address, String down) {
    }

    /** One rail of one node: its best result, its siblings' range, its line rate's healthy minimum, and why. */
    @JsonPropertyOrder({"host", "rank", "rail", "nic", "verdict", "busbw_gbps", "siblings_gbps", "line_floor_gbps", "reason"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Rail(String host, int rank, int rail, String nic, String verdict, Double busbwGbps,
                       List<Double> siblingsGbps, Double lineFloorGbps, String reason) {
    }

    static Rails rails(FleetDocument f) {
        RailResult r = f.rails();
        if (r == null) {
            return null;
        }
        List<RailNode> nodes = new ArrayList<>();
        for (int rank = 0; rank < r.rails().size(); rank++) {
            nodes.add(new RailNode(f.hosts().get(rank), r.rails().get(rank).stream()
                    .map(x -> new RailName(x.nic(), x.ifname(), x.address(), x.down())).toList()));
        }
        List<Rail> verdicts = r.verdicts().stream().map(v -> new Rail(f.hosts().get(v.rank()), v.rank(), v.rail(), v.nic(),
                v.status().name().toLowerCase(Locale.ROOT).replace('_', '-'), FleetDocument.finite(v.busbw()),
                Double.isFinite(v.siblingsLo()) ? List.of(v.siblingsLo(), v.siblingsHi()) : null,
                FleetDocument.finite(v.lineFloor()), FleetDocument.oneLine(v.reason()))).toList();
        return new Rails(r.judgement(), RailJudge.MARGIN, r.plans().size(), nodes, verdicts);
    }

    @JsonPropertyOrder({"hosts", "busbw_gbps", "ratio"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Matrix(List<String> hosts, Double[][] busbwGbps, Double[][] ratio) {
    }

    static Document of(FleetDocument f) {
        Verdicts v = f.verdicts();
        SearchOptions search = f.search();
        FleetSettings settings = f.settings();
        SearchResult result = f.result();
        List<String> hosts = f.hosts();
        BaselineJudge bj = result.evidence().baseline();
        Baseline baseline = f.baseline() == null || bj == null ? null : new Baseline(f.baseline().name(),
                f.baseline().createdAt(), f.baseline().pairs().size(), bj.judged, bj.without);
        List<Node> nodes = v.nodes().stream().map(n -> new Node(n.rank(), hosts.get(n.rank()), n.status().label,
                FleetDocument.oneLine(n.reason()))).toList();
        List<Link> links = v.links().stream().map(l -> new Link(hosts.get(l.a()), hosts.get(l.b()),
                l.status().name().toLowerCase(Locale.ROOT).replace('_', '-'), FleetDocument.finite(l.busbw()),
                FleetDocument.finite(l.ratio()), l.reason())).toList();
        return new Document(FleetDocument.KIND, FleetDocument.SCHEMA_VERSION,
                f.anyBad() ? "bad" : v.undecided().isEmpty() && !railUndecided(f) ? "good" : "good-with-undecided", f.backend(),
                hosts.size(),
                new SearchJudged(search.survey().label, search.groupSize(), search.margin(),
                        search.floorGBps().isPresent() ? search.floorGBps().getAsDouble() : null, f.floorSource(),
                        FleetDocument.judgement(f.floorSource(), f.baseline()), baseline),
                new Measured(settings.sizes(), settings.collectives(), settings.iters(), settings.roundSeconds(), search.seed()),
                new Stop(result.rounds(), search.maxRounds(), result.stopReason()), f.drain(),
                new Found(nodes, links, v.linksMeasured(), f.linksTotal(), v.undecided(), rounds(f),
                        hosts.size() <= FleetHtml.HEAT_MAP_MAX ? new Matrix(hosts, f.matrix(false), f.matrix(true)) : null,
                        rails(f)),
                null);
    }

    private static boolean railUndecided(FleetDocument f) {
        return f.rails() != null && f.rails().verdicts().stream().anyMatch(x -> x.status() == RailVerdict.Status.UNDECIDED);
    }

    private static List<Round> rounds(FleetDocument f) {
        Evidence e = f.result().evidence();
        List<Round> out = new ArrayList<>();
        for (RoundPlan p : f.result().plans()) {
            List<Group> groups = new ArrayList<>();
            for (GroupMeasurement m : e.measurements()) {
                if (m.round() == p.round()) {
                    groups.add(new Group(m.group().members().stream().map(f.hosts()::get).toList(),
                            m.group().purpose().label, m.load(), FleetDocument.finite(m.busbw()),
                            e.usable(m) ? e.ratio(m) : null, e.usable(m) ? e.slow(m) : null, m.error()));
                }
            }
            out.add(new Round(p.round(), groups));
        }
        return out;
    }
}
