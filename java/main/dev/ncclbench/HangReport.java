package dev.ncclbench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * The one wording of a hang, shared by the rendezvous store, the socket mesh's watchdog and the nccl backend:
 * "rank 2 did not reach 'all_reduce 2 MiB' within 3 s".
 */
public final class HangReport {
    private HangReport() {
    }

    public static String didNotReach(Collection<Integer> ranks, String step, long timeoutMillis) {
        return ranks(ranks) + " did not reach '" + step + "' within " + seconds(timeoutMillis);
    }

    /** "rank 2", "ranks 1 and 3", "ranks 0, 1 and 3". */
    public static String ranks(Collection<Integer> ranks) {
        List<String> r = new ArrayList<>();
        ranks.forEach(i -> r.add(Integer.toString(i)));
        if (r.size() == 1) {
            return "rank " + r.get(0);
        }
        if (r.isEmpty()) {
            return "no rank";
        }
        return "ranks " + String.join(", ", r.subList(0, r.size() - 1)) + " and " + r.get(r.size() - 1);
    }

    /** "3 s", "0.7 s". */
    public static String seconds(long millis) {
        return millis % 1000 == 0 ? (millis / 1000) + " s" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
