package dev.ncclbench.fleet;

import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.baseline.SizeKey;
import dev.ncclbench.baseline.SizeSamples;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A group's members' answers as one result. busbw per size is from the median of the per-iteration times (each
 * already the slowest member's); a collective's figure is its best size (the large sizes measure bandwidth);
 * with sendrecv too, the group's figure is the lower of the two.
 */
final class GroupResults {
    private GroupResults() {
    }

    /** Why the group has no result, or null when it has one. */
    static String error(Group g, Map<Integer, Messages.GroupResult> got, Set<Integer> lost, Set<Integer> unfinished,
                        long capSeconds, List<String> hosts) {
        for (int r : g.members()) {
            if (lost.contains(r)) {
                return "lost " + hosts.get(r);
            }
        }
        for (int r : g.members()) {
            if (unfinished.contains(r) && !got.containsKey(r)) {
                return "did not finish within " + capSeconds + " s while " + hosts.get(r) + " kept answering";
            }
        }
        for (int r : g.members()) {
            Messages.GroupResult res = got.get(r);
            if (res == null) {
                return hosts.get(r) + " did not report this group";
            }
            if (res.error() != null) {
                return hosts.get(r) + ": " + res.error();
            }
        }
        Messages.GroupResult first = got.get(g.members().get(0));
        if (first.samples().isEmpty() || first.samples().stream().anyMatch(s -> s.seconds().length == 0)) {
            return hosts.get(g.members().get(0)) + " reported no samples";
        }
        return null;
    }

    static double busbw(Group g, Messages.GroupResult result) {
        Map<String, Double> best = new HashMap<>();
        int elt = DataType.FLOAT.bytes();
        for (Messages.Samples s : result.samples()) {
            Collective c = Collectives.byName(s.collective());
            Counts counts = c.counts(Math.max(1, s.bytes() / elt), elt, g.size());
            double bw = c.busbw(counts, elt, g.size(), median(s.seconds()));
            best.merge(s.collective(), bw, Math::max);
        }
        return best.values().stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    /**
     * Every line's per-iteration times (microseconds), per collective and size, as the gate's samples of one table
     * line: what a baseline records for the pair and compares it with.
     */
    static List<SizeSamples> samples(Group g, Messages.GroupResult result) {
        int elt = DataType.FLOAT.bytes();
        List<SizeSamples> out = new java.util.ArrayList<>();
        for (Messages.Samples s : result.samples()) {
            Collective c = Collectives.byName(s.collective());
            Counts counts = c.counts(Math.max(1, s.bytes() / elt), elt, g.size());
            double[] us = Arrays.stream(s.seconds()).map(x -> x * 1e6).toArray();
            double m = median(us);
            double busbwTimeUs = c.busbw(counts, elt, g.size(), m / 1e6) * m;
            out.add(new SizeSamples(new SizeKey(s.collective(), s.bytes(), DataType.FLOAT.label(), "sum", -1), List.of(us),
                    busbwTimeUs, List.of()));
        }
        return out;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
