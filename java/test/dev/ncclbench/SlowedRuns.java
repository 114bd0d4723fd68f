package dev.ncclbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * A real run's result made into a known change: each placement's per-iteration samples set to their median times a
 * factor. A loaded 2-core VM scatters loopback samples by 2x and more, so only a change made this way is certain to
 * show; what such a test judges is what the gate and the report write, not how the gate weighs noise
 * (SampleComparisonTest does that).
 */
public final class SlowedRuns {
    private SlowedRuns() {
    }

    /** Every placement's samples set to their median times {@code factor}. */
    public static void scaleSamples(ObjectNode doc, double factor) {
        for (JsonNode row : doc.get("rows")) {
            for (String placement : List.of("out_of_place", "in_place")) {
                ArrayNode samples = (ArrayNode) row.get(placement).get("samples_us");
                List<Double> sorted = new ArrayList<>();
                samples.forEach(v -> sorted.add(v.asDouble()));
                sorted.sort(null);
                double median = sorted.get(sorted.size() / 2);
                for (int i = 0; i < samples.size(); i++) {
                    samples.set(i, median * factor);
                }
            }
        }
    }
}
