package dev.ncclbench.results;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The table is sealed by a golden file, written under several default locales: a comma for a decimal point
 * (de-DE) or a dotless i (tr-TR) would break every parser downstream. Regenerate after an intended change
 * with {@code mvn test -Dtest=TableWriterTest -Dgolden.update=true} and review the diff.
 */
class TableWriterTest {
    private static final String GOLDEN = "golden/table-socket-2ranks.txt";

    static String render() {
        StringWriter text = new StringWriter();
        ResultSink sink = ResultSinks.text(new PrintWriter(text), IterationClock.HOST);
        ResultDocument run = Fixtures.run(List.of("all_reduce", "broadcast"), 1);
        sink.beginRun(run);
        sink.beginCollective("all_reduce");
        Fixtures.allReduceRows().forEach(sink::row);
        sink.endCollective("all_reduce");
        sink.beginCollective("broadcast");
        List<ResultRow> broadcast = Fixtures.broadcastRows();
        // Rows without a verdict when written; the diagnosis names them afterwards.
        broadcast.forEach(r -> sink.row(r.withVerdict(null)));
        sink.endCollective("broadcast");
        sink.verdicts(broadcast);
        sink.finish("ok", null);
        return text.toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {"und", "de-DE", "tr-TR", "ar-EG"})
    void matchesGoldenFileUnderEveryDefaultLocale(String tag) throws IOException {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag(tag));
            String actual = render();
            if (dev.ncclbench.Goldens.updating() && "und".equals(tag)) {
                dev.ncclbench.Goldens.expect(GOLDEN, actual);
            }
            assertEquals(resource(GOLDEN), actual, "table under default locale " + tag);
        } finally {
            Locale.setDefault(saved);
        }
    }

    /** Every data row splits into the same columns, ending at the same offsets, as real nccl-tests rows. */
    @Test
    void rowsLineUpWithRealNcclTestsOutput() throws IOException {
        List<String> real = resource("golden/nccl-tests-rows.txt").lines().filter(l -> !l.startsWith("#")).toList();
        List<Integer> realEnds = columnEnds(real.get(0));
        for (String line : real) {
            assertEquals(realEnds, columnEnds(line), "the sample itself is consistent: " + line);
        }
        assertEquals(13, realEnds.size());
        List<String> ours = render().lines().filter(l -> !l.startsWith("#") && !l.isEmpty()).toList();
        assertEquals(Fixtures.allReduceRows().size() + Fixtures.broadcastRows().size(), ours.size());
        // the sample's rows were checked; unchecked rows ("    N/A", 116 wide) are held to nccl-tests'
        // format in SocketConformanceTest
        for (String line : ours.stream().filter(l -> !l.contains("N/A")).toList()) {
            assertEquals(realEnds, columnEnds(line), "columns of our row: " + line);
        }
    }

    @Test
    void reproducesARealRowExactly() {
        // The first sample row of nccl-tests-rows.txt, rebuilt from its numbers.
        ResultRow row = new ResultRow("all_reduce", 32768, 8192, "float", "sum", -1,
                new Measurement(18.66, 1.76, 3.07, 0), new Measurement(17.95, 1.83, 3.20, 0), null, null, null);
        assertEquals("       32768          8192     float     sum      -1    18.66    1.76    3.07       0"
                + "    17.95    1.83    3.20       0", TableWriter.formatRow(row));
    }

    @Test
    void footerAveragesBusbwOverBothPlacementsAndCountsWrongPairs() {
        String text = render();
        List<ResultRow> b = Fixtures.broadcastRows();
        double sum = 0;
        for (ResultRow r : b) {
            sum += r.outOfPlace().busbw() + r.inPlace().busbw();
        }
        assertTrue(text.contains("# Out of bounds values : 3 FAILED\n"), text);
        assertTrue(text.contains("# Avg bus bandwidth    : " + CFormat.general(sum / (2 * b.size())) + " \n"));
        assertTrue(text.contains("# Out of bounds values : 0 OK\n"));
    }

    @Test
    void unfinishedTableGetsNoFooterAndTheErrorIsAComment() {
        StringWriter text = new StringWriter();
        ResultSink sink = ResultSinks.text(new PrintWriter(text), IterationClock.HOST);
        sink.beginRun(Fixtures.run(List.of("all_reduce"), 1));
        sink.beginCollective("all_reduce");
        sink.row(Fixtures.allReduceRows().get(0));
        sink.finish("timeout", "rank 1 (node-b) sent nothing for 300 s\nlast size 8 B");
        String out = text.toString();
        assertTrue(!out.contains("Avg bus bandwidth"), out);
        assertTrue(out.endsWith("# Collective test stopped: all_reduce_perf (timeout)\n# Run status: timeout\n"
                + "# error: rank 1 (node-b) sent nothing for 300 s\n# last size 8 B\n"), out);
    }

    @Test
    void verdictSummaryGroupsConsecutiveSizes() {
        List<String> lines = VerdictSummary.lines(Fixtures.allReduceRows());
        assertEquals(List.of(
                "all_reduce 8 B - 32 KiB unknown (unknown): latency-bound: too small to judge the path",
                "all_reduce 64 KiB - 128 MiB socket (likely): busbw matches the 10 GbE socket floor"), lines);
        List<ResultRow> gap = new ArrayList<>(Fixtures.broadcastRows());
        assertEquals(List.of("broadcast 1 MiB - 2 MiB socket (likely): busbw matches the 10 GbE socket floor"),
                VerdictSummary.lines(gap));
    }

    /** Offsets where each whitespace-separated field ends: nccl-tests' columns are right-aligned. */
    private static List<Integer> columnEnds(String line) {
        List<Integer> ends = new ArrayList<>();
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) != ' ' && (i + 1 == line.length() || line.charAt(i + 1) == ' ')) {
                ends.add(i + 1);
            }
        }
        return ends;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = TableWriterTest.class.getResourceAsStream("/" + name)) {
            if (in == null) {
                throw new IOException("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
