package dev.ncclbench.results;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ncclbench.output.Json;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The record written is the record read: a row goes to JSON and back through the one mapper, a number never measured
 * is null on the wire and NaN again in the model, an unchecked placement is null there and -1 here.
 */
class ResultModelJsonTest {

    @Test
    void aRowWithNumbersNeverMeasuredAndAnUncheckedPlacementComesBackAsItWent() throws IOException {
        SampleStats stats = new SampleStats(3, 1.0, 2.0, Double.NaN, 4.0, Double.POSITIVE_INFINITY, 5.0,
                List.of(1.0, 2.0, 4.0));
        ResultRow row = new ResultRow("all_reduce", 1024, 256, "float", "sum", -1,
                new Measurement(Double.NaN, 0.5, 0.75, 0, 0), new Measurement(12.5, 0.1, 0.2, -1), stats, null,
                new RouteVerdict("socket", "likely", "why", List.of("e")), 2, "ring");

        String text = ResultJson.line(row);
        JsonNode tree = Json.mapper().readTree(text);
        JsonNode oop = tree.get("out_of_place");
        assertTrue(oop.get("time_us").isNull(), text);
        assertTrue(oop.get("samples").get("p99_us").isNull(), "NaN: " + text);
        assertTrue(oop.get("samples").get("mean_us").isNull(), "infinity: " + text);
        assertEquals(List.of(1.0, 2.0, 4.0), Json.mapper().convertValue(oop.get("samples_us"), List.class));
        assertTrue(tree.get("in_place").get("wrong").isNull(), "unchecked: " + text);
        assertTrue(tree.get("in_place").get("wrong_ranks").isNull(), text);
        assertEquals(1024, tree.get("size").asLong());

        ResultRow back = Json.mapper().readValue(text, ResultRow.class);
        assertTrue(Double.isNaN(back.outOfPlace().timeUs()));
        assertTrue(Double.isNaN(back.samplesOutOfPlace().meanUs()), "infinity is written null and read NaN");
        assertFalse(back.inPlace().checked());
        assertEquals(-1L, back.inPlace().wrong());
        assertEquals(row.withVerdict(null).inPlace(), back.inPlace());
        assertEquals(stats.valuesUs(), back.samplesOutOfPlace().valuesUs());
        assertEquals(row.verdict(), back.verdict());
        assertEquals(2, back.cycle());
        assertEquals("ring", back.algorithm());
    }

    @Test
    void aPlacementWrittenBeforeItsFieldsExistedReadsThemAsNotMeasured() throws IOException {
        Measurement m = Json.mapper().readValue("{\"time_us\": 3.5, \"wrong\": 2}", Measurement.class);
        assertEquals(3.5, m.timeUs());
        assertTrue(Double.isNaN(m.algbw()) && Double.isNaN(m.busbw()), m.toString());
        assertEquals(1, m.wrongRanks(), "before wrong_ranks: the wrong elements were seen on one rank");
        assertNull(m.samples());
    }
}
