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

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The timed sizes of a sweep up to 8 MiB or more run on connections made after the warm-ups
 * (RankComm#beforeTimedSizes), a smaller sweep's on the ones it has: on a real 2-rank mesh over loopback, the old
 * links are closed, new ones replace them, and all_reduce on both paths of the rank's thread (one connection, split
 * over two) and on the blocking threads still gives the right sums after it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FreshConnectionsTest {
    private static final Collective ALL_REDUCE = Collectives.byName("all_reduce");
    private static final long[] SIZES = {8, 128 << 10, 40 << 20};

    @Test
    void aSweepUpToEightMiBOrMoreTimesOnNewConnectionsThatStillReduceRight() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        SocketTuning tuning = SocketTuning.of(null, 0);
        ServerSocketChannel l0 = ServerSocketChannel.open().bind(new InetSocketAddress(lo, 0));
        ServerSocketChannel l1 = ServerSocketChannel.open().bind(new InetSocketAddress(lo, 0));
        List<InetSocketAddress> addresses = List.of((InetSocketAddress) l0.getLocalAddress(),
                (InetSocketAddress) l1.getLocalAddress());
        CompletableFuture<Mesh> peer = CompletableFuture.supplyAsync(() -> Mesh.connect(1, 2, 2, l1, addresses, 20_000, tuning, Peers.all(1, 2)));
        try (Mesh m0 = Mesh.connect(0, 2, 2, l0, addresses, 20_000, tuning, Peers.all(0, 2)); Mesh m1 = peer.get()) {
            SocketRankComm c0 = new SocketRankComm(m0, new RankInfo(0, 0, "test", 1, "lo"), tuning);
            SocketRankComm c1 = new SocketRankComm(m1, new RankInfo(1, 1, "test", 1, "lo"), tuning);
            assertEquals(List.of(0L, 0L), bothRanks(() -> wrongAtEverySize(c0), () -> wrongAtEverySize(c1)));
            List<SocketChannel> before = List.of(m0.link(1, 0), m0.link(1, 1), m1.link(0, 0), m1.link(0, 1));

            List<SocketChannel> kept = List.of(m0.link(1, 0), m1.link(0, 0));
            bothRanks(() -> { c0.beforeTimedSizes(2L << 20); return 0L; }, () -> { c1.beforeTimedSizes(2L << 20); return 0L; });
            assertSame(kept.get(0), m0.link(1, 0), "a sweep up to 2 MiB keeps its connections");
            assertSame(kept.get(1), m1.link(0, 0));

            long largest = SocketRankComm.HISTORY_BYTES;
            bothRanks(() -> { c0.beforeTimedSizes(largest); return 0L; }, () -> { c1.beforeTimedSizes(largest); return 0L; });

            List<SocketChannel> after = List.of(m0.link(1, 0), m0.link(1, 1), m1.link(0, 0), m1.link(0, 1));
            for (int i = 0; i < before.size(); i++) {
                assertFalse(before.get(i).isOpen(), "an old link is closed");
                assertNotSame(before.get(i), after.get(i));
                assertTrue(after.get(i).isOpen(), "its new link is open");
            }
            assertEquals(List.of(0L, 0L), bothRanks(() -> wrongAtEverySize(c0), () -> wrongAtEverySize(c1)),
                    "no wrong element on the new connections, in or out of place, at any size");
        }
    }

    /** Wrong elements over every size, both placements, float sum (0 when right). */
    private static long wrongAtEverySize(SocketRankComm comm) {
        long wrong = 0;
        for (long size : SIZES) {
            for (boolean inPlace : new boolean[] {false, true}) {
                try (Operation op = comm.prepare(new Call(ALL_REDUCE, ALL_REDUCE.counts(size / 4, 4, 2),
                        DataType.FLOAT, ReduceOp.SUM, -1, inPlace))) {
                    op.fill();
                    op.launch(0);
                    op.drain();
                    wrong += op.verify();
                }
            }
        }
        return wrong;
    }

    private interface Rank {
        long run() throws Exception;
    }

    /** Runs both ranks at once (each is a collective), returns what each returned. */
    private static List<Long> bothRanks(Rank r0, Rank r1) throws Exception {
        CompletableFuture<Long> other = CompletableFuture.supplyAsync(() -> {
            try {
                return r1.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        List<Long> out = new ArrayList<>();
        out.add(r0.run());
        out.add(other.get());
        return out;
    }
}
