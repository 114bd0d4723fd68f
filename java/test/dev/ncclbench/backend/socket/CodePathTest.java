package dev.ncclbench.backend.socket;

import dev.ncclbench.backend.Call;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The code path an all_reduce names (what the code warm-up's stand-in size must share with the first size)
 * changes where the code does: the algorithm, the rank's thread or blocking threads, split transfers or not.
 * On a real 2-rank mesh over loopback.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CodePathTest {
    private static final Collective ALL_REDUCE = Collectives.byName("all_reduce");

    @Test
    void sizesBetweenTheCrossoversShareAPathAndTheCrossoversChangeIt() throws Exception {
        try (LoopbackPair pair = new LoopbackPair()) {
            SocketRankComm comm = pair.comm0;
            String small = path(comm, 32 << 10);
            String mid = path(comm, 128 << 10);
            assertEquals("rd, polled, one connection", small);
            assertEquals("ring, polled, split", mid);
            assertEquals(mid, path(comm, 2 << 20));
            assertEquals(mid, path(comm, 32 << 20), "32 MiB: exchanges of 32 MiB still run on the rank's thread");
            assertNotEquals(mid, path(comm, 64 << 20), "64 MiB: exchanges past the limit run on blocking threads");
            try (Operation gather = comm.prepare(new Call(Collectives.byName("all_gather"),
                    Collectives.byName("all_gather").counts(1024, 4, 2), DataType.FLOAT, ReduceOp.SUM, -1, false))) {
                assertNull(gather.codePath(), "only all_reduce names its path: other sizes warm only themselves");
            }
        }
    }

    private static String path(SocketRankComm comm, long bytes) {
        try (Operation op = comm.prepare(new Call(ALL_REDUCE, ALL_REDUCE.counts(bytes / 4, 4, 2), DataType.FLOAT,
                ReduceOp.SUM, -1, false))) {
            return op.codePath();
        }
    }
}
