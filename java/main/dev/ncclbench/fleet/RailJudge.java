package dev.ncclbench.fleet;

import dev.ncclbench.baseline.Quantiles;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A verdict per node and rail, never against nothing: each rail against its siblings (the same node's other rails, and
 * the same rail on the other nodes, each at its best result not shared with this rail) and against the healthy minimum
 * of its line rate where the catalog gives one. A slow rail is laid at its node only when a partner it was slow with
 * was fine on that rail with another node; else it is undecided. A rail with neither siblings nor a line rate is not
 * judged.
 *
 * @param lines the healthy minimum of a rail's line rate and where it comes from, if the catalog knows it
 */
record RailJudge(Function<NodeRail, Optional<Line>> lines) {
    /**
     * Slow below this fraction of its siblings' median. Tighter than the node search's margin: a rail's siblings are
     * the same NIC model on the same fabric, and a port that trained down to half (4X to 2X) must fall below it.
     */
    static final double MARGIN = 0.75;

    /** A line rate's healthy minimum (GB/s) and its source ("ib-ndr's healthy minimum 44.0 GB/s (catalog site eth3)"). */
    record Line(double floorGBps, String source) {
    }

    String judgement() {
        return "each rail against its siblings (the node's other rails and the same rail on the other nodes): slow below "
                + Math.round(MARGIN * 100) + "% of their median, or below its line rate's healthy minimum where the catalog"
                + " gives one (--fabric, or a site line of --catalog); a rail with neither is not judged; a rail slow in the shared"
                + " rounds is measured again in a round of the slow rails only, with a partner fine on that rail, and named"
                + " only if slow again";
    }

    List<RailVerdict> judge(List<String> hosts, List<List<NodeRail>> rails, List<RailMeasurement> ms, Set<Integer> lost) {
        List<RailMeasurement> usable = usable(ms, lost);
        List<RailVerdict> out = new ArrayList<>();
        for (int n = 0; n < rails.size(); n++) {
            if (rails.get(n).isEmpty() && !lost.contains(n)) { // --rails found nothing there: said, never passed over
                out.add(new RailVerdict(n, 0, "none", RailVerdict.Status.NOT_JUDGED, Double.NaN, Double.NaN, Double.NaN,
                        Double.NaN, "no rail: --rails matched no interface with an IPv4 address on " + hosts.get(n)));
            }
            for (int r = 0; r < rails.get(n).size(); r++) {
                out.add(one(hosts, rails, ms, usable, lost, n, r));
            }
        }
        return out;
    }

    /** @param usable of {@code ms}, the results that say something ({@link #usable}) */
    private RailVerdict one(List<String> hosts, List<List<NodeRail>> rails, List<RailMeasurement> ms,
                            List<RailMeasurement> usable, Set<Integer> lost, int n, int r) {
        NodeRail rail = rails.get(n).get(r);
        String name = "rail " + r + " (" + rail.label() + ")";
        Optional<Line> line = lines.apply(rail);
        double floor = line.map(Line::floorGBps).orElse(Double.NaN);
        if (!rail.up()) {
            return verdict(n, r, rail, RailVerdict.Status.DOWN, Double.NaN, new double[0], floor, name + " is down: "
                    + rail.down() + "; NCCL spreads its traffic over the other rails, or the job fails on it");
        }
        if (lost.contains(n)) {
            return verdict(n, r, rail, RailVerdict.Status.NOT_JUDGED, Double.NaN, new double[0], floor,
                    name + " not judged: the node was lost");
        }
        List<RailMeasurement> own = usable.stream().filter(m -> m.rail() == r && m.involves(n)).toList();
        if (own.isEmpty()) {
            List<String> gone = ms.stream().filter(m -> m.rail() == r && m.involves(n)).map(m -> hosts.get(m.other(n)))
                    .distinct().toList();
            return verdict(n, r, rail, RailVerdict.Status.NOT_JUDGED, Double.NaN, new double[0], floor, name
                    + " not judged: " + (gone.isEmpty() ? "no other node had a rail " + r + " up to pair it with"
                    : "its groups on it failed when " + String.join(" and ", gone) + (gone.size() == 1 ? " was" : " were")
                    + " lost, which says nothing of this rail"));
        }
        double best = own.stream().mapToDouble(RailJudge::value).max().orElse(0);
        double[] siblings = siblings(rails, usable, n, r);
        if (siblings.length == 0 && line.isEmpty()) {
            return verdict(n, r, rail, RailVerdict.Status.NOT_JUDGED, best, siblings, floor, name + ": " + rate(best)
                    + ", not judged: no sibling rail was measured and no line rate is known (give --fabric, or a site line"
                    + " for it in --catalog)");
        }
        double ref = Quantiles.median(siblings);
        boolean belowSiblings = siblings.length > 0 && best < MARGIN * ref;
        boolean belowLine = line.isPresent() && best < floor;
        String failed = own.stream().allMatch(m -> m.error() != null) ? " (every group failed: " + own.get(0).error() + ")" : "";
        String figures = name + ": " + rate(best) + failed + (siblings.length > 0 ? ", siblings " + range(siblings) : "");
        if (!belowSiblings && !belowLine) {
            return verdict(n, r, rail, RailVerdict.Status.OK, best, siblings, floor, figures
                    + (line.isPresent() ? ", line rate's healthy minimum " + rate(floor) : ""));
        }
        String why = (belowSiblings ? Math.round(100 * best / ref) + "% of its siblings' median" : "")
                + (belowSiblings && belowLine ? " and " : "") + (belowLine ? "below " + line.get().source() : "");
        Set<String> cleared = new LinkedHashSet<>();
        Set<String> partners = new LinkedHashSet<>();
        for (RailMeasurement m : own) {
            int p = m.other(n);
            partners.add(hosts.get(p));
            if (fineElsewhere(rails, usable, p, r, n, ref, siblings.length > 0)) {
                cleared.add(hosts.get(p));
            }
        }
        if (!cleared.isEmpty()) {
            return verdict(n, r, rail, RailVerdict.Status.SLOW, best, siblings, floor, figures + " (" + why
                    + "; slow with " + String.join(" and ", partners) + ", and " + String.join(" and ", cleared)
                    + (cleared.size() == 1 ? " was" : " were") + " fine on rail " + r + " with another node)");
        }
        return verdict(n, r, rail, RailVerdict.Status.UNDECIDED, best, siblings, floor, figures + " (" + why
                + "), but only with " + String.join(" and ", partners) + ", whose rail " + r
                + " was not measured fine with another node: which end is slow cannot be told");
    }

    /**
     * The verdicts after the confirmation rounds: a rail slow in the shared rounds stays slow only if its re-measure
     * ({@code again}) is still below the margin against the same siblings, or below its line rate's healthy minimum;
     * else it is ok, and says it was slow in the shared round and fine alone. A failed re-measure counts as nothing.
     */
    List<RailVerdict> confirm(List<String> hosts, List<List<NodeRail>> rails, List<RailMeasurement> shared,
                              Set<Integer> lost, List<RailVerdict> first, List<RailMeasurement> again) {
        List<RailMeasurement> usable = usable(shared, lost);
        return first.stream().map(v -> v.status() == RailVerdict.Status.SLOW
                ? reconsider(hosts, rails, usable, v, again) : v).toList();
    }

    /** @param usable the shared rounds' results that say something ({@link #usable}) */
    private RailVerdict reconsider(List<String> hosts, List<List<NodeRail>> rails, List<RailMeasurement> usable,
                                   RailVerdict v, List<RailMeasurement> again) {
        int n = v.rank();
        int r = v.rail();
        List<RailMeasurement> own = again.stream().filter(m -> m.rail() == r && m.involves(n)).toList();
        if (own.isEmpty()) {
            return withReason(v, v.reason() + "; not measured again: no other node's rail " + r + " was fine to pair it with");
        }
        double second = own.stream().mapToDouble(RailJudge::value).max().orElse(0);
        double[] siblings = siblings(rails, usable, n, r);
        Optional<Line> line = lines.apply(rails.get(n).get(r));
        boolean still = siblings.length > 0 && second < MARGIN * Quantiles.median(siblings)
                || line.isPresent() && second < line.get().floorGBps();
        String failed = own.stream().allMatch(m -> m.error() != null) ? " (failed: " + own.get(0).error() + ")" : "";
        String remeasure = "with " + own.stream().map(m -> hosts.get(m.other(n))).distinct()
                .collect(Collectors.joining(" and ")) + " in a round of the slow rails only: " + rate(second) + failed;
        if (still) {
            return withReason(v, v.reason() + "; slow again " + remeasure);
        }
        NodeRail rail = rails.get(n).get(r);
        return verdict(n, r, rail, RailVerdict.Status.OK, second, siblings, v.lineFloor(), "rail " + r + " ("
                + rail.label() + "): slow in the shared round (" + rate(v.busbw())
                + (siblings.length > 0 ? ", siblings " + range(siblings) : "") + ") and fine " + remeasure + (line.isPresent() ? ", line rate's healthy minimum " + rate(v.lineFloor()) : ""));
    }

    private static RailVerdict withReason(RailVerdict v, String reason) {
        return new RailVerdict(v.rank(), v.rail(), v.nic(), v.status(), v.busbw(), v.siblingsLo(), v.siblingsHi(),
                v.lineFloor(), reason);
    }

    /** Results that say something: fine ones, and failures while both ends stayed reachable (a rail that failed is slow). */
    private static List<RailMeasurement> usable(List<RailMeasurement> ms, Set<Integer> lost) {
        return ms.stream().filter(m -> m.error() == null || !lost.contains(m.a()) && !lost.contains(m.b())).toList();
    }

    private static double value(RailMeasurement m) {
        return m.error() != null || !Double.isFinite(m.busbw()) ? 0 : m.busbw();
    }

    /**
     * The siblings' figures: each of the node's other rails at its best, and the same rail of each other node at its
     * best without this node (a result shared with this rail is not a sibling's own).
     */
    private static double[] siblings(List<List<NodeRail>> rails, List<RailMeasurement> ms, int n, int r) {
        List<Double> out = new ArrayList<>();
        for (int other = 0; other < rails.get(n).size(); other++) {
            int rr = other;
            if (rr != r) {
                best(ms.stream().filter(m -> m.rail() == rr && m.involves(n)).toList()).ifPresent(out::add);
            }
        }
        for (int node = 0; node < rails.size(); node++) {
            int nn = node;
            if (nn != n) {
                best(ms.stream().filter(m -> m.rail() == r && m.involves(nn) && !m.involves(n)).toList()).ifPresent(out::add);
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    private static Optional<Double> best(List<RailMeasurement> ms) {
        return ms.stream().map(RailJudge::value).max(Double::compare);
    }

    /** Whether rail {@code r} of {@code p} was fine with a node other than {@code n}. */
    private boolean fineElsewhere(List<List<NodeRail>> rails, List<RailMeasurement> ms, int p, int r, int n, double ref,
                                  boolean relative) {
        Optional<Double> b = best(ms.stream().filter(m -> m.rail() == r && m.involves(p) && !m.involves(n)).toList());
        if (b.isEmpty()) {
            return false;
        }
        Optional<Line> line = lines.apply(rails.get(p).get(r));
        return (!relative || b.get() >= MARGIN * ref) && (line.isEmpty() || b.get() >= line.get().floorGBps());
    }

    private static RailVerdict verdict(int n, int r, NodeRail rail, RailVerdict.Status s, double busbw, double[] siblings,
                                       double floor, String reason) {
        return new RailVerdict(n, r, rail.nic(), s, busbw, siblings.length == 0 ? Double.NaN : siblings[0],
                siblings.length == 0 ? Double.NaN : siblings[siblings.length - 1], floor, reason);
    }

    /** "23.9 GB/s", or "4.74 MB/s" below 1 GB/s (a lab's veth). */
    static String rate(double gbps) {
        return gbps >= 1 ? String.format(Locale.ROOT, "%.3g GB/s", gbps) : String.format(Locale.ROOT, "%.3g MB/s", gbps * 1000);
    }

    /** "46-48 GB/s": the siblings' lowest and highest, in one unit. */
    static String range(double[] sorted) {
        double lo = sorted[0];
        double hi = sorted[sorted.length - 1];
        boolean mb = hi < 1;
        double k = mb ? 1000 : 1;
        String unit = mb ? " MB/s" : " GB/s";
        return Arrays.stream(new double[] {lo, hi}).distinct().mapToObj(v -> String.format(Locale.ROOT, "%.3g", v * k))
                .collect(Collectors.joining("-")) + unit;
    }
}
