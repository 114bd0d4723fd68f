package dev.ncclbench.backend.socket;

import dev.ncclbench.results.Measurement;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Exchanges up to {@link SocketTuning#POLL_LIMIT} bytes run on the rank's thread, larger ones on blocking
 * threads: both paths carry the right bytes, also when the two ends of one transfer take different paths (the
 * wire layout depends on the transfer alone).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TransferPathsTest {
    @TempDir
    Path dir;

    @Test
    void recursiveDoublingAt64MiBMovesBothDirectionsOnBlockingThreads() throws IOException {
        // 2 ranks, rd: one exchange of 64 MiB each way, 128 MiB in all: past the limit on both ends
        assertTrue(2L * (64 << 20) > SocketTuning.POLL_LIMIT);
        runsRightBothWays("rd", "--backend socket --ranks 2 --socket-algo rd -b 64M -e 64M -n 1 -w 0", "rd");
    }

    @Test
    void theRingAt64MiBReducesIntoTheResultOutOfPlaceAndThroughPiecesInPlace() throws IOException {
        // 2 ranks, ring: exchanges of 64 MiB, on blocking threads; out of place each piece lands in the result and is
        // reduced there (the send buffer is the other operand), in place through the piece buffer; an int32 sum shows
        // a wrong operand or a piece reduced twice in the check
        runsRightBothWays("ring",
                "--backend socket --ranks 2 --socket-algo ring -d int32 -o sum -b 64M -e 64M -n 2 -w 0", "ring");
    }

    @Test
    void theRingOnThePollingThreadReducesIntoTheResultOutOfPlaceAndThroughPiecesInPlace() throws IOException {
        // 3 ranks, ring: chunks of 4 MiB, exchanges of 8 MiB on the rank's thread; each chunk is split over the two
        // connections and arrives in four pieces per slice, out of place straight into the result (two
        // reduce-scatter steps, the second sending what the first reduced), in place through the piece buffer
        assertTrue(2L * (4 << 20) <= SocketTuning.POLL_LIMIT);
        runsRightBothWays("pring",
                "--backend socket --ranks 3 --socket-algo ring -d int32 -o sum -b 12M -e 12M -n 2 -w 0", "ring");
    }

    @Test
    void aGatherWhoseRootBlocksWhileItsSendersPollArrivesWhole() throws IOException {
        // 5 ranks, 85 MiB gathered: each sender sends 17 MiB (its own thread), the root receives 68 MiB (threads)
        long block = (85L << 20) / 5;
        assertTrue(block <= SocketTuning.POLL_LIMIT && 4 * block > SocketTuning.POLL_LIMIT);
        runsRightBothWays("g", "--backend socket --ranks 5 --collective gather -r 0 -b 85M -e 85M -n 1 -w 0", "direct");
    }

    /** One size, in and out of place: exit 0, the algorithm named, no wrong element in either placement. */
    private void runsRightBothWays(String name, String args, String algorithm) throws IOException {
        SocketConformanceTest.Run r = SocketConformanceTest.sweep(dir.resolve(name + ".json"), args);
        assertEquals(0, r.code(), r.err() + r.out());
        ResultRow row = r.doc().rows().get(0);
        assertEquals(algorithm, row.algorithm());
        assertEquals(0L, row.outOfPlace().wrong(), "out of place");
        assertEquals(0L, row.inPlace().wrong(), "in place");
    }
}
