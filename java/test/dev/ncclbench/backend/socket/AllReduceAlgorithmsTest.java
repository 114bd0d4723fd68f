package dev.ncclbench.backend.socket;

import dev.ncclbench.results.Measurement;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every all_reduce algorithm gives the right answer at every size, in and out of place, on powers of two and
 * not (recursive doubling and rabenseifner fold the extra ranks in first), and every row says which one ran.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AllReduceAlgorithmsTest {
    /** 8 B to 8 MiB by 16: tiny sizes, a piece and more, and past 4 MiB, where exchanges move to blocking threads. */
    private static final String SIZES = "-b 8 -e 8M -f 16 -n 2 -w 1";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "--socket-algo {0} --ranks {1} -d {2} -o {3}")
    @CsvSource({
            "rd,   2, float,  sum",
            "rd,   3, int32,  max",
            "rd,   5, double, avg",
            "rd,   6, int64,  prod",
            "ring, 3, float,  avg",
            "ring, 4, int32,  sum",
            "rabenseifner, 4, float, sum",
            "rabenseifner, 3, int32, max",
            "rabenseifner, 6, double, avg",
            "rabenseifner, 8, int64, prod",
    })
    void verifiesAtEverySizeAndSaysWhichRan(String algo, int n, String type, String op) throws IOException {
        SocketConformanceTest.Run r = SocketConformanceTest.sweep(dir.resolve("r.json"), "--backend socket --ranks " + n
                + " --socket-algo " + algo + " -d " + type + " -o " + op + " " + SIZES);
        assertEquals(0, r.code(), r.err() + r.out());
        assertEquals(6, r.doc().rows().size(), r.out());
        for (ResultRow row : r.doc().rows()) {
            assertEquals(algo, row.algorithm(), "row " + row.sizeBytes());
            assertEquals(0L, row.outOfPlace().wrong(), "out of place, " + row.sizeBytes() + " B");
            assertEquals(0L, row.inPlace().wrong(), "in place, " + row.sizeBytes() + " B");
        }
        assertEquals(algo, r.doc().spec().socket().algo());
    }

    @Test
    void autoTakesRecursiveDoublingForSmallSizesAndTheRingForLargeOnesAndTheHeaderSaysWhere() throws IOException {
        SocketConformanceTest.Run r = SocketConformanceTest.sweep(dir.resolve("a.json"),
                "--backend socket --ranks 2 --socket-chunk 64K -b 64K -e 128K -f 2 -n 2 -w 1");
        assertEquals(0, r.code(), r.err() + r.out());
        assertEquals("rd", r.doc().rows().get(0).algorithm());
        assertEquals("ring", r.doc().rows().get(1).algorithm());
        assertEquals(65536, r.doc().spec().socket().chunk());
        assertTrue(r.out().contains("# socket all_reduce: recursive doubling up to 64 KiB, above it rabenseifner on 4, 8, 16..."
                + " ranks and the ring otherwise"), r.out());
        assertTrue(r.out().contains("reduction in pieces of 64 KiB"), r.out());
        assertTrue(r.out().contains("# the code paths are warmed (JIT) before each collective's first timed size, whatever -w"), r.out());
    }

    @Test
    void autoTakesRabenseifnerAboveTheCrossoverOnAPowerOfTwoOfFourOrMoreAndTheRingOtherwise() throws IOException {
        for (int n : new int[]{3, 4}) {
            SocketConformanceTest.Run r = SocketConformanceTest.sweep(dir.resolve("p" + n + ".json"),
                    "--backend socket --ranks " + n + " -b 64K -e 128K -f 2 -n 2 -w 1");
            assertEquals(0, r.code(), r.err() + r.out());
            assertEquals("rd", r.doc().rows().get(0).algorithm(), n + " ranks");
            assertEquals(n == 4 ? "rabenseifner" : "ring", r.doc().rows().get(1).algorithm(), n + " ranks");
        }
    }
}
