package dev.ncclbench.baseline;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.results.ResultDocument;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-iteration samples of a result document, per table line: each repeat of a line (-N) is its own group,
 * out-of-place and in-place pooled (the same collective at the same size; pooling doubles what the rank test
 * sees).
 */
public final class RunSamples {
    private RunSamples() {
    }

    /**
     * @param source how to name the document in a message (its path)
     * @throws NcclbenchException (usage) when a row has no per-iteration samples: a file written before
     *                            ncclbench kept them, or one edited by hand
     */
    public static Map<SizeKey, SizeSamples> of(ResultDocument doc, String source) {
        Map<SizeKey, List<double[]>> groups = new LinkedHashMap<>();
        Map<SizeKey, List<String>> paths = new LinkedHashMap<>();
        Map<SizeKey, Double> busbwTime = new LinkedHashMap<>();
        for (ResultDocument.Row row : doc.rows() == null ? List.<ResultDocument.Row>of() : doc.rows()) {
            SizeKey key = new SizeKey(row.collective(), row.size(), row.type(), row.redop(), row.root());
            List<Double> values = new ArrayList<>();
            add(values, row.outOfPlace());
            add(values, row.inPlace());
            if (values.isEmpty()) {
                throw NcclbenchException.usage(source + " has no per-iteration samples for " + key.label()
                        + " (written before ncclbench kept them?): rerun the sweep");
            }
            groups.computeIfAbsent(key, k -> new ArrayList<>())
                    .add(values.stream().mapToDouble(Double::doubleValue).toArray());
            paths.computeIfAbsent(key, k -> new ArrayList<>())
                    .add(row.verdict() == null || row.verdict().path() == null ? "" : row.verdict().path());
            double bt = busbwTime(row.outOfPlace());
            if (!(bt > 0)) {
                bt = busbwTime(row.inPlace());
            }
            if (bt > 0) {
                busbwTime.putIfAbsent(key, bt);
            }
        }
        Map<SizeKey, SizeSamples> out = new LinkedHashMap<>();
        groups.forEach((k, g) -> out.put(k, new SizeSamples(k, g, busbwTime.getOrDefault(k, 0.0), paths.get(k))));
        return out;
    }

    private static void add(List<Double> into, ResultDocument.Placement p) {
        if (p == null || p.samplesUs() == null) {
            return;
        }
        for (Double v : p.samplesUs()) {
            if (v != null && v > 0 && Double.isFinite(v)) {
                into.add(v);
            }
        }
    }

    private static double busbwTime(ResultDocument.Placement p) {
        if (p == null || p.busbw() == null || p.timeUs() == null) {
            return Double.NaN;
        }
        return p.busbw() * p.timeUs();
    }
}
