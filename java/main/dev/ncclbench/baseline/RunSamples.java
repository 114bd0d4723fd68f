package dev.ncclbench.baseline;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.results.Measurement;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultRow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-iteration samples of a result document, per table line and placement: each repeat of a line (-N) is its
 * own group. A placement written without samples (a GPU sweep of a version that kept them only with -I 1) gives its
 * table time as its one value and marks the line {@link SizeSamples#tableOnly()}: judged by tolerance alone, never
 * refused.
 */
public final class RunSamples {
    private RunSamples() {
    }

    /**
     * @param source how to name the document in a message (its path)
     * @throws NcclbenchException (usage) when no row holds a time at all (a file edited by hand)
     */
    public static Map<SizeKey, SizeSamples> of(ResultDocument doc, String source) {
        Map<SizeKey, SizeSamples> out = new LinkedHashMap<>();
        boolean anyRow = false;
        for (ResultRow row : doc.rows()) {
            anyRow = true;
            String path = row.verdict() == null || row.verdict().path() == null ? "" : row.verdict().path();
            for (boolean in : new boolean[] {false, true}) {
                Measurement p = in ? row.inPlace() : row.outOfPlace();
                SizeKey key = new SizeKey(row.collective(), row.sizeBytes(), row.type(), row.redop(), row.root(), in);
                SizeSamples line = line(key, p, path);
                if (line != null) {
                    out.merge(key, line, SizeSamples::plus);
                }
            }
        }
        if (anyRow && out.isEmpty()) {
            throw NcclbenchException.usage(source + " has rows but no time in any of them: was it edited by hand?"
                    + " Rerun the sweep");
        }
        return out;
    }

    private static SizeSamples line(SizeKey key, Measurement p, String path) {
        if (p == null || !(p.timeUs() > 0) || !Double.isFinite(p.timeUs())) {
            return null;
        }
        double bt = p.busbw() * p.timeUs();
        double busbwTime = bt > 0 ? bt : 0.0;
        List<Double> values = new ArrayList<>();
        for (Double v : p.samples() == null ? List.<Double>of() : p.samples().valuesUs()) {
            if (v != null && v > 0 && Double.isFinite(v)) {
                values.add(v);
            }
        }
        boolean tableOnly = values.isEmpty();
        double[] group = tableOnly ? new double[] {p.timeUs()} : values.stream().mapToDouble(Double::doubleValue).toArray();
        return new SizeSamples(key, List.of(group), busbwTime, List.of(path), List.of(p.timeUs()), tableOnly);
    }
}
