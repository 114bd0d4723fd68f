package dev.ncclbench.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** -J: nccl-tests' JSON version 3, key for key in util.cu's order, with its per-iteration data. */
class NcclTestsJsonWriterTest {
    @TempDir
    Path dir;

    private static List<String> keys(JsonNode n) {
        List<String> out = new ArrayList<>();
        Iterator<String> it = n.fieldNames();
        it.forEachRemaining(out::add);
        return out;
    }

    private JsonNode write(Path file, ResultDocument run, List<ResultRow> rows) throws Exception {
        StringWriter out = new StringWriter();
        NcclTestsJsonWriter w = new NcclTestsJsonWriter(file, new PrintWriter(out),
                Clock.fixed(Instant.parse("2026-01-02T12:00:00Z"), ZoneOffset.UTC));
        w.beginRun(run);
        assertEquals("# Writing JSON output to " + w.file() + "\n", out.toString());
        w.beginCollective("all_reduce");
        rows.forEach(w::row);
        w.endCollective("all_reduce");
        w.finish("ok", null);
        return new ObjectMapper().readTree(w.file().toFile());
    }

    @Test
    void keysInUtilCuOrderWithPerIterationData() throws Exception {
        ResultDocument base = TableWriterPerIterTest.run(0, 0);
        double[] r0 = {10, 12, 11, 30};
        double[] r1 = {11, 9, 14, 12};
        double[] max = {11, 12, 14, 30};
        SampleStats s = new SampleStats(3, 12, 14, 30, 30, 56.0 / 3, 40, List.of(), 30, 8.2, 1, max, new double[][] {r0, r1});
        ResultRow row = new ResultRow("all_reduce", 1024, 256, "float", "sum", -1, new Measurement(20.5, 0.05, 0.05, 0),
                new Measurement(21, 0.05, 0.05, -1), s, s, null);
        JsonNode doc = write(dir.resolve("r.json"), base, List.of(row));
        assertEquals(List.of("version", "start_time", "args", "env", "nccl_version", "config", "results", "out_of_bounds",
                "average_bus_bandwidth", "errors", "end_time"), keys(doc));
        assertEquals(3, doc.get("version").asInt());
        assertEquals("2026-01-02 12:00:00", doc.get("start_time").asText());
        assertEquals(List.of("nthreads", "ngpus", "minimum_bytes", "maximum_bytes", "step_factor", "warmup_iters",
                "iterations", "aggregated_iterations", "validation", "graph", "blocking_collectives", "per_iter_timing",
                "per_iter_skip", "parallel_init", "devices"), keys(doc.get("config")));
        assertEquals("true", doc.at("/config/per_iter_timing").asText(), "jsonBool writes strings");
        assertEquals(List.of("rank", "group", "pid", "hostname", "device", "device_hex", "device_info"),
                keys(doc.at("/config/devices/0")));
        assertEquals("gpu-node-long-name", doc.at("/config/devices/1/hostname").asText());
        assertEquals(1, doc.at("/config/devices/1/device").asInt());
        assertEquals("0000:18:00", doc.at("/config/devices/1/device_hex").asText());
        assertEquals("NVIDIA H200", doc.at("/config/devices/1/device_info").asText());
        JsonNode r = doc.at("/results/0");
        assertEquals(List.of("size", "count", "type", "redop", "root", "out_of_place", "out_of_place_per_iter", "in_place",
                "in_place_per_iter", "actual_iterations", "experiment_name"), keys(r));
        assertEquals("    -1", r.get("root").asText(), "sprintf(\"%6i\")");
        assertEquals(List.of("time", "alg_bw", "bus_bw", "nwrong"), keys(r.get("out_of_place")));
        assertTrue(r.at("/in_place/nwrong").isNull(), "unchecked: null");
        assertEquals(List.of("skipped_iterations", "min_us", "max_us", "avg_us", "p50_us", "p95_us", "p99_us", "stdev_us",
                "cv_pct", "times_us", "per_process_max_times_us"), keys(r.get("out_of_place_per_iter")));
        JsonNode per = r.get("out_of_place_per_iter");
        for (int i = 0; i < max.length; i++) {
            double m = Math.max(per.at("/per_process_max_times_us/0/" + i).asDouble(),
                    per.at("/per_process_max_times_us/1/" + i).asDouble());
            assertEquals(m, per.at("/times_us/" + i).asDouble(), 0.0, "analyze_perf_json.py's consistency check");
        }
        assertTrue(Files.readString(dir.resolve("r.json")).contains("\"time\":20.500000,"), "%lf");
    }

    @Test
    void noPerIterationObjectsWithoutMinusI() throws Exception {
        ResultDocument base = Fixtures.run(List.of("all_reduce"), 1);
        JsonNode doc = write(dir.resolve("plain.json"), base, Fixtures.allReduceRows());
        assertFalse(doc.at("/results/0").has("out_of_place_per_iter"));
        assertEquals(Fixtures.allReduceRows().size(), doc.get("results").size());
        assertEquals("unchecked", doc.at("/average_bus_bandwidth/okay").asText());
    }

    /** util.cu opens "wx": an existing file is kept and the next free FILE.0, FILE.1... is written. */
    @Test
    void anExistingFileIsNeverOverwritten() throws Exception {
        Path f = dir.resolve("r.json");
        Files.writeString(f, "keep");
        Files.writeString(dir.resolve("r.json.0"), "keep too");
        assertEquals(dir.resolve("r.json.1"), NcclTestsJsonWriter.reserve(f));
        assertEquals("keep", Files.readString(f));
    }

    @Test
    void ncclVersionCode() {
        assertEquals(23007, NcclTestsJsonWriter.ncclVersionCode("2.30.7"));
        assertEquals(22809, NcclTestsJsonWriter.ncclVersionCode("NCCL 2.28.9+cuda13.0"));
        assertEquals(2804, NcclTestsJsonWriter.ncclVersionCode("2.8.4"));
        assertEquals(0, NcclTestsJsonWriter.ncclVersionCode(null));
    }

}
