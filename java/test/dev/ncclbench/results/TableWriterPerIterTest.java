package dev.ncclbench.results;

import dev.ncclbench.spec.RunSpec;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The table with nccl-tests' -I 1 (i_min, i_max, i_p99, i_cv% after each placement), -S 1 (timestamp column) and -C 1
 * (cputime), against a golden file and against util.cu's own format strings (writeResultHeader, v2.19.6).
 */
class TableWriterPerIterTest {
    private static final String GOLDEN = "golden/table-per-iter.txt";
    private static final Clock NOON = Clock.fixed(Instant.parse("2026-01-02T12:34:56Z"), ZoneOffset.UTC);

    static ResultDocument run(int timestamps, int cputime) {
        ResultDocument base = Fixtures.run(List.of("all_reduce"), 1);
        RunSpec.Devices d = base.spec().devices();
        RunSpec spec = base.spec().withDevices(new RunSpec.Devices(d.gpusPerThread(), d.threads(), d.cudaGraph(), 1))
                .withNcclTests(new RunSpec.NcclTests(null, null,
                        new RunSpec.NcclTestsFlags(null, cputime, timestamps, 2, 0, 0, 0, 0, null)));
        return base.toBuilder().spec(spec).begun();
    }

    /** The fixture's rows with -I 1's samples in both placements, as a -I 1 run has them. */
    static List<ResultRow> rows() {
        return Fixtures.allReduceRows().stream().map(r -> new ResultRow(r.collective(), r.sizeBytes(), r.count(), r.type(),
                r.redop(), r.root(), r.outOfPlace(), r.inPlace(), r.samplesOutOfPlace(), r.samplesOutOfPlace(), r.verdict()))
                .toList();
    }

    static String render(int timestamps, int cputime) {
        return render(timestamps, cputime, rows());
    }

    static String render(int timestamps, int cputime, List<ResultRow> rows) {
        StringWriter text = new StringWriter();
        TableWriter sink = new TableWriter(new PrintWriter(text), IterationClock.HOST, NOON);
        sink.beginRun(run(timestamps, cputime));
        sink.beginCollective("all_reduce");
        rows.forEach(sink::row);
        sink.endCollective("all_reduce");
        sink.finish("ok", null);
        return text.toString();
    }

    /**
     * -I 1's i_min above the row's time, which a user met with no word why: said under the table where it happens
     * (nccl-tests' rule: the time is the ranks' mean of whole loops, each i_* iteration the slowest rank's), not where
     * it does not, and not under -C, whose column is another time.
     */
    @Test
    void iMinAboveTheTimeIsExplainedUnderTheTableWhereItHappens() {
        List<ResultRow> rows = new java.util.ArrayList<>(rows());
        ResultRow r = rows.get(1);
        double t = r.outOfPlace().timeUs();
        SampleStats slowest = new SampleStats(20, t * 1.1, t * 1.2, t * 1.4, t * 1.5, t * 1.25, 9.0,
                List.of(t * 1.1, t * 1.2, t * 1.5));
        rows.set(1, new ResultRow(r.collective(), r.sizeBytes(), r.count(), r.type(), r.redop(), r.root(), r.outOfPlace(),
                r.inPlace(), slowest, r.samplesInPlace(), r.verdict()));
        String text = dev.ncclbench.CliRun.unwrapped(render(0, 0, rows));
        assertTrue(text.contains("# i_min is above time in 1 of " + rows.size() + " rows, as it can be in nccl-tests: time"
                + " is each rank's whole loop over -n, then the ranks' mean (-a 1); each i_* iteration is the slowest"
                + " rank's"), text);
        assertTrue(!render(0, 0).contains("i_min is above"), "no row has it: no word");
        assertTrue(!render(0, 1, rows).contains("i_min is above"), "-C 1: the column is the time to issue the calls");
    }

    @Test
    void matchesGoldenFile() throws IOException {
        String actual = render(1, 0);
        assertEquals(dev.ncclbench.Goldens.expect(GOLDEN, actual), actual);
    }

    /** util.cu's format strings, copied verbatim, give the same header lines. */
    @Test
    void headerIsUtilCuFormatStrings() {
        for (int ts : new int[] {0, 1}) {
            for (int cpu : new int[] {0, 1}) {
                List<String> lines = render(ts, cpu).lines().toList();
                String time = cpu == 1 ? "cputime" : "time";
                String tsLbl = ts == 1 ? "timestamp" : "";
                String tsFmt = ts == 1 ? "%Y-%m-%d %H:%M:%S" : "";
                int tsPad = ts == 1 ? 19 : 0;
                String first = String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s              out-of-place (+ per-iteration)"
                        + "                                in-place (+ per-iteration)", "", "", "", "", "");
                String names = String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s"
                        + "  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s %" + (tsPad == 0 ? "" : tsPad) + "s", "size", "count", "type",
                        "redop", "root", time, "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99", "i_cv%",
                        time, "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99", "i_cv%", tsLbl);
                String units = String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s"
                        + "  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s %" + (tsPad == 0 ? "" : tsPad) + "s", "(B)", "(elements)", "",
                        "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(us)", "(us)", "(%)",
                        "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(us)", "(us)", "(%)", tsFmt);
                int at = lines.indexOf(first);
                assertTrue(at > 0, "the -I 1 header's first line: " + lines);
                assertEquals(names, lines.get(at + 1));
                assertEquals(units, lines.get(at + 2));
            }
        }
    }

    /** A row: the preamble (52), two placements (33 each) each with its four i_* columns (36), then "%21s". */
    @Test
    void rowsHaveNcclTestsWidths() {
        List<String> rows = render(1, 0).lines().filter(l -> !l.startsWith("#") && !l.isEmpty()).toList();
        assertEquals(Fixtures.allReduceRows().size(), rows.size());
        for (String row : rows) {
            assertEquals(52 + 2 * (33 + 36) + 21, row.length(), row);
            assertTrue(row.endsWith("  2026-01-02 12:34:56"), row);
        }
        List<String> plain = render(0, 0).lines().filter(l -> !l.startsWith("#") && !l.isEmpty()).toList();
        // 8 B: t = 10.3; the fixture's stats are min 0.9 t, p99 1.2 t, max 1.3 t, cv 3.5
        assertTrue(plain.get(0).contains("       0     9.28    13.40    12.37     3.50    10.10"), plain.get(0));
    }

    @Test
    void skipAndTimingLineInThePreamble() {
        String text = render(0, 0);
        assertTrue(text.contains("# Per-Iteration Report: host clock timing; i_* uses max over process rows;"
                + " summary skips first 2 iterations \n"), text);
    }
}
