package dev.ncclbench.backend.socket;

import dev.ncclbench.cli.Main;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.results.Measurement;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultRow;
import dev.ncclbench.results.ResultFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The socket backend runs every collective on 1 to 4 in-process ranks over real loopback sockets, through the
 * whole CLI, and every row verifies: this is what a fresh clone without a GPU gives its user.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SocketConformanceTest {
    private static final String SIZES = "-b 8 -e 1M -f 8 -n 2 -w 1";
    /** -b 8 -e 1M -f 8: 8, 64, 512, 4K, 32K, 256K. */
    private static final int NSIZES = 6;

    @TempDir
    Path dir;

    record Run(int code, String out, String err, ResultDocument doc) {
    }

    static Run sweep(Path json, String line) throws IOException {
        List<String> args = new ArrayList<>(List.of("sweep", "--no-progress", "--json", json.toString(), "--out",
                json.getParent().toString()));
        args.addAll(List.of(line.trim().split("\\s+")));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
        ResultDocument doc = json.toFile().exists() ? ResultFiles.read(json) : null;
        return new Run(code, out.toString(), err.toString(), doc);
    }

    private static void assertRelative(double expected, double actual, String where) {
        assertTrue(Math.abs(expected - actual) <= 1e-12 * Math.abs(expected), where + ": expected " + expected + ", got " + actual);
    }

    /** Covers every type the socket backend reduces, every op, and 1 to 4 ranks; each run does every collective. */
    @ParameterizedTest(name = "ranks={0} -d {1} -o {2}")
    @CsvSource({
            "1, float,  sum",
            "2, double, prod",
            "3, int32,  max",
            "4, int64,  min",
            "4, float,  avg",
            "3, double, avg",
            "2, int32,  avg",
            "4, float,  sum",
    })
    void everyCollectiveVerifiesAndBusbwFollowsTheFormula(int n, String type, String op) throws IOException {
        Run r = sweep(dir.resolve("r.json"), "--backend socket --ranks " + n + " --collective all -r -1 -d " + type
                + " -o " + op + " " + SIZES);
        assertEquals(0, r.code(), r.err() + r.out());
        assertNotNull(r.doc(), "JSON written");
        ResultDocument doc = r.doc();
        assertEquals("ok", doc.status());
        assertEquals("socket", doc.backend());
        assertEquals(n, doc.nranks());
        assertEquals(n, doc.ranks().size());

        Map<String, Integer> rowsPer = new HashMap<>();
        for (ResultRow row : doc.rows()) {
            Collective c = Collectives.byName(row.collective());
            String where = row.collective() + " size " + row.sizeBytes() + " root " + row.root() + " (n=" + n + " " + type + " " + op + ")";
            rowsPer.merge(row.collective(), 1, Integer::sum);
            assertEquals(type, row.type(), where);
            assertEquals(c.reduces() ? op : "none", row.redop(), where);
            if (c.rooted()) {
                assertTrue(row.root() >= 0 && row.root() < n, where);
            } else {
                assertEquals(-1, row.root(), where);
            }
            for (Measurement p : List.of(row.outOfPlace(), row.inPlace())) {
                assertEquals(0L, p.wrong(), "wrong elements: " + where);
                assertEquals(0, p.wrongRanks(), where);
                assertTrue(p.timeUs() > 0, where);
                assertRelative(p.algbw() * c.busbwFactor(n), p.busbw(), "busbw = algbw x factor: " + where);
                int elt = dev.ncclbench.collective.DataType.parse(type).bytes();
                double bytes = (double) row.count() * elt * c.algBytesRanks(n);
                assertTrue(Math.abs(bytes / 1e9 / (p.timeUs() / 1e6) - p.algbw()) <= 1e-9 * p.algbw() + 1e-300,
                        "algbw = bytes / time: " + where);
            }
        }
        for (Collective c : Collectives.parseList("all")) {
            // a size that rounds to no whole per-rank block makes no row (no 0-byte row from a non-zero size)
            dev.ncclbench.collective.DataType dt = dev.ncclbench.collective.DataType.parse(type);
            long sizes = 0;
            for (long size = 8; size <= (1 << 20); size *= 8) {
                if (c.counts(size / dt.bytes(), dt.bytes(), n).sizeBytes(dt) > 0) {
                    sizes++;
                }
            }
            assertTrue(sizes >= NSIZES - 2, c.name() + ": most sizes make rows");
            assertEquals(sizes * (c.rooted() ? n : 1), (long) rowsPer.getOrDefault(c.name(), 0), c.name() + " rows");
        }
        // the table says the same: nine collectives, each "0 OK"
        assertEquals(9, count(r.out(), "# Out of bounds values : 0 OK"), r.out());
        assertFalse(r.out().contains("FAILED"), r.out());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void allReduceOnFourRanksHasBusbwExactlyOneAndAHalfTimesAlgbw() throws IOException {
        // the issue's own check: -b 8 -e 64M -f 2 --ranks 4 (one timed iteration keeps it short)
        Run r = sweep(dir.resolve("ar.json"), "--backend socket --ranks 4 -b 8 -e 64M -f 2 -n 1 -w 0");
        assertEquals(0, r.code(), r.err());
        assertEquals(24, r.doc().rows().size(), "8 B to 64 MiB by 2");
        for (ResultRow row : r.doc().rows()) {
            assertEquals("all_reduce", row.collective());
            assertEquals(row.count() * 4, row.sizeBytes());
            for (Measurement p : List.of(row.outOfPlace(), row.inPlace())) {
                assertRelative(p.algbw() * 1.5, p.busbw(), "size " + row.sizeBytes());
                assertEquals(0L, p.wrong());
            }
        }
    }

    @Test
    void checkZeroMeansWrongIsNullAndTheTableSaysNA() throws IOException {
        Run r = sweep(dir.resolve("c0.json"), "--backend socket --ranks 2 -c 0 -b 8 -e 4K -f 8 -n 2 -w 0");
        assertEquals(0, r.code(), r.err());
        assertEquals(4, r.doc().rows().size());
        for (ResultRow row : r.doc().rows()) {
            assertFalse(row.outOfPlace().checked());
            assertFalse(row.inPlace().checked());
        }
        List<String> data = dataRows(r.out());
        assertEquals(4, data.size(), r.out());
        for (String line : data) {
            assertTrue(line.trim().endsWith("N/A"), line);
            assertEquals(2, count(line, "N/A"), line);
        }
    }

    @Test
    void aDefaultSocketSweepVerifiesToo() throws IOException {
        // no -b/-e: 8 B up to the socket default; -n 1 keeps it short
        Run r = sweep(dir.resolve("d.json"), "--backend socket --ranks 2 -n 1 -w 0");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.doc().rows().size() >= 18, "8 B .. at least 1 MiB: " + r.doc().rows().size());
        assertEquals(8, r.doc().rows().get(0).sizeBytes());
        for (ResultRow row : r.doc().rows()) {
            assertEquals(0L, row.outOfPlace().wrong());
            assertEquals(0L, row.inPlace().wrong());
        }
    }

    // ---- the table parses with the column positions of real nccl-tests output ----

    @Test
    void rowsOfARealRunLineUpWithRealNcclTestsRows() throws IOException {
        List<Integer> realEnds = ncclTestsColumnEnds();
        Run r = sweep(dir.resolve("t.json"), "--backend socket --ranks 3 --collective all -r -1 " + SIZES);
        assertEquals(0, r.code(), r.err());
        List<String> ours = dataRows(r.out());
        assertEquals(r.doc().rows().size(), ours.size());
        for (String line : ours) {
            assertEquals(realEnds, columnEnds(line), "columns of our row:\n" + line);
            String[] f = line.trim().split("\\s+");
            assertEquals(13, f.length, line);
            Long.parseLong(f[0]);
            Long.parseLong(f[1]);
            Integer.parseInt(f[4]);
            for (int i : new int[] {5, 6, 7, 9, 10, 11}) {
                Double.parseDouble(f[i]);
            }
            assertEquals("0", f[8], line);
            assertEquals("0", f[12], line);
        }
        // the header names sit over their columns too
        for (String header : r.out().lines().filter(l -> l.startsWith("#       size")).toList()) {
            List<Integer> ends = columnEnds(header.substring(1));
            assertEquals(realEnds, ends.stream().map(e -> e + 1).toList(), header);
        }
    }

    /**
     * nccl-tests prints "  %7s  %6s  %6s    N/A" when not checking (util.cu writeBenchmarkLineBody): N/A ends one
     * column left of where %6g's last digit would, so an unchecked row is 116 characters, not 118.
     */
    @Test
    void uncheckedRowsLineUpWithNcclTestsNA() throws IOException {
        List<Integer> realEnds = ncclTestsColumnEnds();
        List<Integer> naEnds = new ArrayList<>(realEnds);
        naEnds.set(8, realEnds.get(8) - 1);
        for (int i = 9; i < 12; i++) {
            naEnds.set(i, realEnds.get(i) - 1);
        }
        naEnds.set(12, realEnds.get(12) - 2);
        Run r = sweep(dir.resolve("na.json"), "--backend socket --ranks 2 -c 0 -b 8 -e 4K -f 8 -n 2 -w 0");
        assertEquals(0, r.code(), r.err());
        for (String line : dataRows(r.out())) {
            assertEquals(naEnds, columnEnds(line), line);
            assertEquals(116, line.length(), line);
        }
    }

    static List<Integer> ncclTestsColumnEnds() throws IOException {
        List<String> real = resource("golden/nccl-tests-rows.txt").lines().filter(l -> !l.startsWith("#")).toList();
        List<Integer> ends = columnEnds(real.get(0));
        assertEquals(13, ends.size());
        return ends;
    }

    static List<String> dataRows(String table) {
        return table.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    }

    /** Offsets where each whitespace-separated field ends: nccl-tests' columns are right-aligned. */
    static List<Integer> columnEnds(String line) {
        List<Integer> ends = new ArrayList<>();
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) != ' ' && (i + 1 == line.length() || line.charAt(i + 1) == ' ')) {
                ends.add(i + 1);
            }
        }
        return ends;
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = SocketConformanceTest.class.getResourceAsStream("/" + name)) {
            if (in == null) {
                throw new IOException("missing test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
