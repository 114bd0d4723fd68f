package dev.ncclbench.rendezvous;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The store's system calls on many connections at once, shared between its thread and helpers: each connection once,
 * by one thread, what a share flags handed back; and a job big enough to share its rounds still names a lost rank.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StoreSharesTest {
    private static final byte[] TOKEN = "shared-0123456789".substring(0, 16).getBytes(StandardCharsets.US_ASCII);

    @Test
    void eachConnectionOnceByOneThreadAndTheFlaggedComeBack() {
        StoreShares shares = new StoreShares();
        try {
            List<Integer> conns = IntStream.range(0, 1000).boxed().toList();
            Map<Integer, String> by = new ConcurrentHashMap<>();
            List<Integer> flagged = shares.run(conns, c -> {
                assertNull(by.put(c, Thread.currentThread().getName()), "connection " + c + " twice");
                return c % 7 == 0;
            });
            assertEquals(1000, by.size());
            assertEquals(conns.stream().filter(c -> c % 7 == 0).collect(Collectors.toSet()), new HashSet<>(flagged));
            assertEquals(flagged.size(), new HashSet<>(flagged).size(), "flagged once each");
            Set<String> threads = new HashSet<>(by.values());
            // a share each: the caller's and every helper's, so 1000 connections never wait on one thread
            assertEquals(StoreShares.threads(), threads.size(), threads.toString());
            assertTrue(threads.contains(Thread.currentThread().getName()), "the caller takes a share: " + threads);
        } finally {
            shares.close();
        }
    }

    @Test
    void aRankLostAfterASharedRoundIsNamedToEveryOther() throws Exception {
        int n = 300; // a round answers 300 connections: over StoreShares.FROM, written side by side
        int lost = n - 1;
        ExecutorService pool = Executors.newFixedThreadPool(n - 1);
        CountDownLatch firstDone = new CountDownLatch(n - 1);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, 30_000);
             Socket raw = RawHello.hello(new InetSocketAddress("127.0.0.1", server.port()), TOKEN, lost, 1, n)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port());
            List<Future<NcclbenchException>> failures = new ArrayList<>();
            for (int r = 0; r < n - 1; r++) {
                int rank = r;
                failures.add(pool.submit(() -> {
                    try (StoreClient c = StoreClient.connect(at, TOKEN, rank, n, 30_000)) {
                        c.barrier("one");
                        firstDone.countDown();
                        return assertThrows(NcclbenchException.class, () -> c.barrier("two"));
                    }
                }));
            }
            // the last rank in the store's own wire format: the first barrier, its answer, then killed
            DataOutputStream out = new DataOutputStream(raw.getOutputStream());
            DataInputStream in = new DataInputStream(raw.getInputStream());
            out.writeInt(lost);
            out.writeInt(Wire.OP_GATHER);
            out.writeInt(Wire.NOTHING);
            out.writeInt(0);
            Wire.writeString(out, "one");
            Wire.writeBytes(out, Wire.EMPTY);
            out.flush();
            assertEquals(lost, in.readInt(), "the answer's frame names the rank");
            assertEquals(8, in.readInt());
            assertEquals(Wire.OK, in.readInt());
            assertEquals(0, in.readInt());
            assertTrue(firstDone.await(30, TimeUnit.SECONDS), "every rank past the first barrier");
            RawHello.vanish(raw);
            for (Future<NcclbenchException> f : failures) {
                NcclbenchException e = f.get(30, TimeUnit.SECONDS);
                assertEquals(ExitCode.RUN_FAILED, e.exitCode(), e.getMessage());
                assertTrue(e.getMessage().startsWith("rank " + lost + " lost: its connection to the rendezvous closed"),
                        e.getMessage());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
