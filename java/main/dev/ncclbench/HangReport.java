package dev.ncclbench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The one wording of a hang, shared by the rendezvous store, the socket mesh's watchdog and the nccl backend:
 * "rank 2 did not reach 'all_reduce 2 MiB' within 3 s".
 *
 * <p>The sentence is read by a person, and at 8192 ranks a thousand hung ones would make it a page: consecutive
 * ranks read as a range ("ranks 8-15", a node's ranks), and past {@value #NAMED} ranges or ranks the rest are
 * counted, not listed ("1,016 ranks (0, 2, 4, ... and 1,008 more)"). What is judged is not capped: the caller
 * decides on every rank and passes every rank, and the count says how many.
 */
public final class HangReport {
    /** At most this many ranks or ranges of ranks are named in a sentence; the others are counted. */
    public static final int NAMED = 8;

    private HangReport() {
    }

    public static String didNotReach(Collection<Integer> ranks, String step, long timeoutMillis) {
        return ranks(ranks) + " did not reach '" + step + "' within " + seconds(timeoutMillis);
    }

    /**
     * "rank 2", "ranks 1 and 3", "ranks 0, 1 and 3", "ranks 0 and 8-1023" (three or more in a row are a range);
     * over {@value #NAMED} ranks and ranges, "1,016 ranks (0, 2, 4, 6, 8, 10, 12, 14 and 1,008 more)".
     */
    public static String ranks(Collection<Integer> ranks) {
        TreeSet<Integer> sorted = new TreeSet<>(ranks);
        if (sorted.isEmpty()) {
            return "no rank";
        }
        if (sorted.size() == 1) {
            return "rank " + sorted.first();
        }
        // the items a person reads: a range for three or more ranks in a row, else single ranks
        List<String> items = new ArrayList<>();
        List<Integer> covers = new ArrayList<>();
        int from = sorted.first();
        int prev = from;
        for (int r : sorted.tailSet(from, false)) {
            if (r != prev + 1) {
                run(items, covers, from, prev);
                from = r;
            }
            prev = r;
        }
        run(items, covers, from, prev);
        if (items.size() == 1) {
            return "ranks " + items.get(0);
        }
        if (items.size() <= NAMED) {
            return "ranks " + String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
        }
        int named = 0;
        for (int i = 0; i < NAMED; i++) {
            named += covers.get(i);
        }
        return String.format(Locale.ROOT, "%,d ranks (%s and %,d more)", sorted.size(),
                String.join(", ", items.subList(0, NAMED)), sorted.size() - named);
    }

    private static void run(List<String> items, List<Integer> covers, int from, int to) {
        if (to - from >= 2) {
            items.add(from + "-" + to);
            covers.add(to - from + 1);
            return;
        }
        for (int r = from; r <= to; r++) {
            items.add(Integer.toString(r));
            covers.add(1);
        }
    }

    /**
     * Where the ranks run, for a sentence about them: " on node7", " on 3 hosts: node7 (8 ranks), node9 (1), node12
     * (1)", past {@value #NAMED} hosts counted ("on 127 hosts: node1 (8 ranks), ... and 119 more"); ranks whose host is
     * not known ({@code hostOf} null) are counted apart ("; 998 never reached the store"). Empty when no host is known.
     */
    public static String onHosts(Collection<Integer> ranks, java.util.function.IntFunction<String> hostOf) {
        java.util.LinkedHashMap<String, Integer> byHost = new java.util.LinkedHashMap<>();
        int unknown = 0;
        for (int r : new TreeSet<>(ranks)) {
            String h = hostOf.apply(r);
            if (h == null) {
                unknown++;
            } else {
                byHost.merge(h, 1, Integer::sum);
            }
        }
        String never = unknown == 0 || byHost.isEmpty() ? ""
                : String.format(Locale.ROOT, "; %,d never reached the store", unknown);
        if (byHost.isEmpty()) {
            return "";
        }
        if (byHost.size() == 1) {
            return " on " + byHost.keySet().iterator().next() + never;
        }
        List<String> named = new ArrayList<>();
        for (java.util.Map.Entry<String, Integer> e : byHost.entrySet()) {
            if (named.size() == NAMED) {
                break;
            }
            named.add(e.getKey() + " (" + e.getValue() + (named.isEmpty() ? e.getValue() == 1 ? " rank)" : " ranks)" : ")"));
        }
        String more = byHost.size() > NAMED ? String.format(Locale.ROOT, " and %,d more", byHost.size() - NAMED) : "";
        return String.format(Locale.ROOT, " on %,d hosts: %s%s%s", byHost.size(), String.join(", ", named), more, never);
    }

    /** "3 s", "0.7 s". */
    public static String seconds(long millis) {
        return millis % 1000 == 0 ? (millis / 1000) + " s" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
