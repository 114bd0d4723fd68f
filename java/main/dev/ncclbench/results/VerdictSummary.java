package dev.ncclbench.results;

import dev.ncclbench.spec.Sizes;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Path verdicts of a sweep in a few lines: consecutive sizes with the same verdict share one line. */
public final class VerdictSummary {
    private VerdictSummary() {
    }

    /**
     * One line per run of consecutive rows (in the order given) of the same collective whose verdicts
     * have the same path, confidence and reason: {@code "all_reduce 8 B - 64 KiB socket (likely): reason"}.
     * Rows without a verdict end a run and print nothing.
     */
    public static List<String> lines(List<ResultRow> rows) {
        List<String> out = new ArrayList<>();
        ResultRow first = null;
        ResultRow last = null;
        for (ResultRow row : rows) {
            if (first != null && !sameVerdict(first, row)) {
                out.add(line(first, last));
                first = null;
            }
            if (row.verdict() != null) {
                if (first == null) {
                    first = row;
                }
                last = row;
            }
        }
        if (first != null) {
            out.add(line(first, last));
        }
        return out;
    }

    private static boolean sameVerdict(ResultRow a, ResultRow b) {
        RouteVerdict va = a.verdict();
        RouteVerdict vb = b.verdict();
        return vb != null && a.collective().equals(b.collective()) && Objects.equals(va.path(), vb.path())
                && Objects.equals(va.confidence(), vb.confidence()) && Objects.equals(va.reason(), vb.reason());
    }

    private static String line(ResultRow first, ResultRow last) {
        RouteVerdict v = first.verdict();
        String range = first.sizeBytes() == last.sizeBytes() ? Sizes.human(first.sizeBytes())
                : Sizes.human(first.sizeBytes()) + " - " + Sizes.human(last.sizeBytes());
        return first.collective() + " " + range + " " + v.path() + " (" + v.confidence() + "): " + v.reason();
    }
}
