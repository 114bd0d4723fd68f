package dev.ncclbench.backend.socket;

import dev.ncclbench.backend.Call;
import dev.ncclbench.backend.Operation;
import dev.ncclbench.collective.Collective;
import dev.ncclbench.collective.Collectives;
import dev.ncclbench.collective.DataType;
import dev.ncclbench.collective.ReduceOp;
import dev.ncclbench.results.RankInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A rank's buffers are made once, at the sweep's largest size, and reused by every size, as nccl-tests allocates at
 * maxBytes: made size by size, a sweep by -i 1M replaced them at every size, and a 33-size sweep to 64 MiB on 4 ranks
 * reached 6 GB of memory for 768 MiB of buffers (the issue's `-e 1T`: 3.5 GB). The JVM's count of direct memory
 * grows by the three buffers once, whatever the sizes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BuffersOnceTest {
    private static final Collective ALL_REDUCE = Collectives.byName("all_reduce");

    private static long directBytes() {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(b -> b.getName().equals("direct")).mapToLong(BufferPoolMXBean::getTotalCapacity).sum();
    }

    @Test
    void everySizeOfASweepByOneMiBUsesTheBuffersMadeForItsLargest() throws Exception {
        long largest = 16L << 20;
        try (LoopbackPair pair = new LoopbackPair()) {
            SocketRankComm comm = new SocketRankComm(pair.mesh0, new RankInfo(0, 0, "test", 1, "lo"), pair.tuning, largest);
            long before = directBytes();
            for (long size = 1L << 20; size <= largest; size += 1L << 20) {
                try (Operation op = comm.prepare(new Call(ALL_REDUCE, ALL_REDUCE.counts(size / 4, 4, 2), DataType.FLOAT,
                        ReduceOp.SUM, -1, false))) {
                    op.fill(); // the buffers are used, not only asked for
                }
                assertEquals(3 * largest, directBytes() - before, "made at the largest size, from the first (" + size + " B)");
            }
        }
    }
}
