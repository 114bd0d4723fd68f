package dev.ncclbench.backend.socket;

import dev.ncclbench.backend.socket.SocketConformanceTest.Run;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.Counts;
import dev.ncclbench.results.Measurement;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * nccl-tests' alltoallv and hypercube (v2.19.6 alltoallv.cu, hypercube.cu) on real loopback socket ranks: every
 * element checked where nccl-tests checks it, byte counts and bandwidth factors as nccl-tests computes them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NcclTestsPatternsTest {
    private static final String SIZES = "-b 8 -e 256K -f 8 -n 2 -w 1";

    @TempDir
    Path dir;

    private static void assertRelative(double expected, double actual, String where) {
        assertTrue(Math.abs(expected - actual) <= 1e-12 * Math.abs(expected), where + ": expected " + expected + ", got " + actual);
    }

    /** Out of place every element as alltoallv.cu's expected buffer; in place N/A (its reportErrors 0). */
    @ParameterizedTest(name = "ranks={0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void alltoallvChecksOutOfPlaceAndPrintsNaInPlace(int n) throws IOException {
        Run r = SocketConformanceTest.sweep(dir.resolve("v.json"), "--backend socket --ranks " + n
                + " --collective alltoallv -d int32 " + SIZES);
        assertEquals(0, r.code(), r.err() + r.out());
        Collective c = Collectives.byName("alltoallv");
        assertTrue(r.doc().rows().size() >= 3, r.out());
        for (ResultRow row : r.doc().rows()) {
            String where = "size " + row.sizeBytes() + " n=" + n;
            Counts counts = c.counts(row.count() * n, 4, n);
            assertEquals(counts.sizeBytes(dev.ncclbench.collective.DataType.INT32), row.sizeBytes(), where);
            assertEquals(0L, row.outOfPlace().wrong(), where);
            assertFalse(row.inPlace().checked(), "nccl-tests does not check alltoallv in place: " + where);
            Measurement p = row.outOfPlace();
            // AlltoAllvGetBw: a rank's total over the time, busbw x (n-1)/n
            assertRelative((double) row.sizeBytes() / 1e9 / (p.timeUs() / 1e6), p.algbw(), where);
            assertRelative(p.algbw() * (n - 1) / n, p.busbw(), where);
        }
        List<String> rows = r.out().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        for (String line : rows) {
            assertTrue(line.trim().endsWith("N/A"), line);
        }
    }

    /** Hypercube on 1, 2 and 4 ranks: all_gather's result and counts, algbw of the n-1 blocks received, busbw = algbw. */
    @ParameterizedTest(name = "ranks={0}")
    @ValueSource(ints = {1, 2, 4})
    void hypercubeGathersEveryBlockOnAPowerOfTwo(int n) throws IOException {
        Run r = SocketConformanceTest.sweep(dir.resolve("h.json"), "--backend socket --ranks " + n
                + " --collective hypercube -d float " + SIZES);
        assertEquals(0, r.code(), r.err() + r.out());
        assertTrue(r.doc().rows().size() >= 3, r.out());
        for (ResultRow row : r.doc().rows()) {
            String where = "size " + row.sizeBytes() + " n=" + n;
            assertEquals(row.count() * 4 * n, row.sizeBytes(), where);
            for (Measurement p : List.of(row.outOfPlace(), row.inPlace())) {
                assertEquals(0L, p.wrong(), where);
                assertRelative((double) row.count() * 4 * (n - 1) / 1e9 / (p.timeUs() / 1e6), p.algbw(), where);
                assertEquals(p.algbw(), p.busbw(), 0.0, where);
            }
        }
    }

    /** Off a power of two nccl-tests prints "nRanks 3 is not a power of 2, skipping" and measures nothing: so here. */
    @Test
    void hypercubeOnThreeRanksSaysItSkipsAndRunsNothing() throws IOException {
        Run r = SocketConformanceTest.sweep(dir.resolve("h3.json"), "--backend socket --ranks 3 --collective hypercube,all_gather "
                + SIZES);
        assertEquals(0, r.code(), r.err() + r.out());
        assertTrue(r.out().contains("# hypercube: nRanks 3 is not a power of 2, skipping"), r.out());
        assertTrue(r.doc().rows().stream().allMatch(row -> row.collective().equals("all_gather")), r.out());
        assertTrue(!r.doc().rows().isEmpty());
    }

    /** Hypercube links a rank to its log2(n) partners only; alltoallv to everyone. */
    @Test
    void peersAreTheHypercubePartners() {
        dev.ncclbench.spec.RunSpec spec = dev.ncclbench.spec.RunSpec.builder().collectives(List.of("hypercube")).build();
        boolean[] need = Peers.needed(spec, 5, 8);
        assertEquals(List.of(false, true, false, false, true, false, false, true), toList(need), "4, 7, 1 for rank 5");
        boolean[] all = Peers.needed(dev.ncclbench.spec.RunSpec.builder().collectives(List.of("alltoallv")).build(), 0, 4);
        assertEquals(List.of(false, true, true, true), toList(all));
    }

    private static List<Boolean> toList(boolean[] b) {
        java.util.List<Boolean> out = new java.util.ArrayList<>();
        for (boolean x : b) {
            out.add(x);
        }
        return out;
    }
}
