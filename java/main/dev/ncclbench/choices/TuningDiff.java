package dev.ncclbench.choices;

import dev.ncclbench.spec.Sizes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where the algorithm or protocol NCCL chose differs, per collective, as runs of consecutive sizes that changed the
 * same way: "AllReduce 64 MiB to 8 GiB now NVLS SIMPLE" is one change, not one per size.
 */
final class TuningDiff {
    /** A sweep's 30 sizes can split into many runs; the first few say enough. */
    private static final int MAX_CHANGES = 6;

    private final List<Change> changes = new ArrayList<>();
    private int compared;
    private int runs;

    TuningDiff(Map<String, Map<Long, String>> before, Map<String, Map<Long, String>> after) {
        for (var e : after.entrySet()) {
            Map<Long, String> b = before.get(e.getKey());
            if (b != null) {
                collective(e.getKey(), b, e.getValue());
            }
        }
    }

    /** The changes, at most {@link #MAX_CHANGES}. */
    List<Change> changes() {
        return changes;
    }

    /** Sizes both sides logged a choice for. */
    int compared() {
        return compared;
    }

    private void collective(String collective, Map<Long, String> before, Map<Long, String> after) {
        long from = -1;
        long to = -1;
        String runB = null;
        String runA = null;
        for (var s : after.entrySet()) {
            String cb = before.get(s.getKey());
            if (cb == null) {
                continue;
            }
            compared++;
            String ca = s.getValue();
            if (runB != null && !(cb.equals(runB) && ca.equals(runA))) {
                run(collective, from, to, runB, runA);
                runB = null;
            }
            if (!cb.equals(ca)) {
                if (runB == null) {
                    from = s.getKey();
                    runB = cb;
                    runA = ca;
                }
                to = s.getKey();
            }
        }
        if (runB != null) {
            run(collective, from, to, runB, runA);
        }
    }

    private void run(String collective, long from, long to, String before, String after) {
        if (runs++ < MAX_CHANGES) {
            String sizes = from == to ? "at " + Sizes.human(from) : Sizes.human(from) + " to " + Sizes.human(to);
            // copy-engine collectives and symmetric kernels (2.28+) are paths of their own, not an algorithm
            String effect = after.startsWith("copy-engine") && !before.startsWith("copy-engine") ? Effects.TO_COPY_ENGINE
                    : after.startsWith("symmetric") && !before.startsWith("symmetric") ? Effects.TO_SYMMETRIC
                    : Effects.TUNING;
            changes.add(new Change("tuning", collective + " " + sizes + " now " + after, before, after, effect, null,
                    effect.equals(Effects.TUNING) ? 30 : 45));
        }
    }
}
