package dev.ncclbench.rendezvous;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Only a holder of the job's token joins, over real sockets on 127.0.0.1: a hello sniffed on the wire and replayed is
 * refused (and never held the token), and a bounded flood of garbage and silent connections leaves a job's gathers
 * undisturbed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StoreAuthenticationTest {
    private static final byte[] TOKEN = "the job's secret, never on the wire".getBytes(StandardCharsets.UTF_8);

    private static InetSocketAddress at(StoreServer s) {
        return new InetSocketAddress("127.0.0.1", s.port());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A sniffer in the middle of one connection: copies both ways and keeps every byte it saw. */
    private static final class Relay implements AutoCloseable {
        final ServerSocket listen = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
        final ByteArrayOutputStream up = new ByteArrayOutputStream();
        final ByteArrayOutputStream down = new ByteArrayOutputStream();
        final List<Socket> sockets = new ArrayList<>();

        Relay(InetSocketAddress to) throws IOException {
            Thread t = new Thread(() -> {
                try {
                    Socket client = listen.accept();
                    Socket store = new Socket(to.getAddress(), to.getPort());
                    synchronized (sockets) {
                        sockets.add(client);
                        sockets.add(store);
                    }
                    pump(client.getInputStream(), store.getOutputStream(), up);
                    pump(store.getInputStream(), client.getOutputStream(), down);
                } catch (IOException e) {
                    // the test ended
                }
            }, "relay");
            t.setDaemon(true);
            t.start();
        }

        InetSocketAddress at() {
            return new InetSocketAddress("127.0.0.1", listen.getLocalPort());
        }

        private static void pump(InputStream in, OutputStream out, ByteArrayOutputStream seen) {
            Thread t = new Thread(() -> {
                byte[] b = new byte[4096];
                try {
                    for (int n; (n = in.read(b)) > 0; ) {
                        synchronized (seen) {
                            seen.write(b, 0, n);
                        }
                        out.write(b, 0, n);
                        out.flush();
                    }
                } catch (IOException e) {
                    // closed
                }
            }, "relay-pump");
            t.setDaemon(true);
            t.start();
        }

        byte[] seen(ByteArrayOutputStream s) {
            synchronized (s) {
                return s.toByteArray();
            }
        }

        @Override
        public void close() throws IOException {
            listen.close();
            synchronized (sockets) {
                for (Socket s : sockets) {
                    s.close();
                }
            }
        }
    }

    /** The hello at the start of what a client sent: its fixed part, then the flags and the host, each after its length. */
    private static byte[] firstHello(byte[] sent) {
        ByteBuffer b = ByteBuffer.wrap(sent);
        int fixed = 20 + JobProof.ID_BYTES + JobProof.ANSWER_BYTES; // up to the flags' length
        b.position(fixed);
        for (int field = 0; field < 2; field++) {
            int length = b.getInt();
            b.position(b.position() + length);
        }
        return Arrays.copyOf(sent, b.position());
    }

    /** Sends {@code hello} on a new connection after the store's challenge; returns the store's one-line refusal, or null. */
    private static String sayHello(StoreServer server, byte[] hello) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(at(server), 5_000);
            DataInputStream in = new DataInputStream(s.getInputStream());
            Wire.readChallenge(in);
            s.getOutputStream().write(hello);
            if (in.readInt() == Wire.OK) {
                return null;
            }
            in.readInt(); // the exit code
            return Wire.readString(in, 4096);
        }
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        for (int i = 0; i + needle.length <= hay.length; i++) {
            if (Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aSniffedHelloReplayedOnAnotherConnectionIsRefusedAndTheJobGoesOn() throws Exception {
        int n = 3;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, 30_000);
             Relay relay = new Relay(at(server))) {
            // rank 1 joins through the sniffer; connect returns once the store has admitted it
            StoreClient rank1 = StoreClient.connect(relay.at(), TOKEN, 1, n, 10_000, "-n 5");
            StoreClient rank0 = StoreClient.connect(at(server), TOKEN, 0, n, 10_000, "-n 5");
            byte[] sniffed = firstHello(relay.seen(relay.up));
            assertFalse(contains(relay.seen(relay.up), TOKEN), "the token never crossed the wire");
            assertFalse(contains(relay.seen(relay.down), TOKEN), "nor did the store send it");
            // the very bytes, on another connection: another nonce, so the answer is wrong
            String replayed = sayHello(server, sniffed);
            assertTrue(replayed != null && replayed.contains("rank 1 did not prove the job's secret"), replayed);
            assertEquals(1, replayed.lines().count(), replayed);
            // the same hello for the rank still missing: the answer covers the rank too
            byte[] forRank2 = sniffed.clone();
            ByteBuffer.wrap(forRank2).putInt(24, 2);
            String taken = sayHello(server, forRank2);
            assertTrue(taken != null && taken.contains("rank 2 did not prove the job's secret"), taken);
            // the job waited for its own rank 2; with it, every gather completes
            List<Future<byte[][]>> got = new ArrayList<>();
            got.add(pool.submit(() -> rank0.allGather("after the replay", bytes("0"))));
            got.add(pool.submit(() -> rank1.allGather("after the replay", bytes("1"))));
            got.add(pool.submit(() -> {
                try (StoreClient rank2 = StoreClient.connect(at(server), TOKEN, 2, n, 10_000, "-n 5")) {
                    return rank2.allGather("after the replay", bytes("2"));
                }
            }));
            for (Future<byte[][]> f : got) {
                byte[][] all = f.get(30, TimeUnit.SECONDS);
                assertArrayEquals(new byte[][] {bytes("0"), bytes("1"), bytes("2")}, all);
            }
            rank0.close();
            rank1.close();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFloodOfGarbageForgedAndHalfOpenConnectionsLeavesTheJobUndisturbed() throws Exception {
        int n = 2;
        int perFlooder = 2_500;
        int silent = 300;
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Socket> held = new ArrayList<>();
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, 60_000)) {
            // before the ranks come: connections that say nothing, and some that stop half-way through a hello
            for (int i = 0; i < silent; i++) {
                Socket s = new Socket();
                held.add(s);
                s.connect(at(server), 5_000);
                if (i % 3 == 0) {
                    DataOutputStream o = new DataOutputStream(s.getOutputStream());
                    o.writeInt(Wire.MAGIC);
                    o.writeInt(JobProof.VERSION);
                    o.write(JobProof.id(TOKEN), 0, 10);
                    o.flush();
                }
            }
            CountDownLatch flooding = new CountDownLatch(2);
            AtomicInteger refusedForgeries = new AtomicInteger();
            List<Future<?>> flooders = new ArrayList<>();
            for (int f = 0; f < 2; f++) {
                long seed = f;
                flooders.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    for (int i = 0; i < perFlooder; i++) {
                        if (i == 100) {
                            flooding.countDown(); // the ranks start while the flood goes on
                        }
                        flood(server, random, i % 4, refusedForgeries);
                    }
                    return null;
                }));
            }
            flooding.await();
            List<Future<List<byte[][]>>> ranks = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                ranks.add(pool.submit(() -> {
                    try (StoreClient c = StoreClient.connect(at(server), TOKEN, rank, n, 30_000, "-n 5")) {
                        List<byte[][]> rounds = new ArrayList<>();
                        for (int round = 0; round < 40; round++) {
                            rounds.add(c.allGather("size " + round, bytes(rank + "/" + round)));
                            c.barrier("after size " + round);
                        }
                        return rounds;
                    }
                }));
            }
            for (int r = 0; r < n; r++) {
                List<byte[][]> rounds = ranks.get(r).get(60, TimeUnit.SECONDS);
                for (int round = 0; round < 40; round++) {
                    assertArrayEquals(new byte[][] {bytes("0/" + round), bytes("1/" + round)}, rounds.get(round));
                }
            }
            for (Future<?> f : flooders) {
                f.get(60, TimeUnit.SECONDS);
            }
            // every forged hello (the job's id, a made-up answer) was refused in words, none admitted
            assertEquals(2 * perFlooder / 4, refusedForgeries.get());
        } finally {
            for (Socket s : held) {
                s.close();
            }
            pool.shutdownNow();
        }
    }

    /**
     * Finding 9: more connections than the store holds before a hello, each half-way through one with a 16 KiB flags
     * length (its buffer grown to about 32 KiB), are not all kept until the file descriptors run out: past one a rank
     * and {@link StoreServer#SPARE_STRANGERS} the oldest are closed, and the job's ranks still join and gather.
     */
    @Test
    void halfSaidHellosBeyondWhatTheStoreHoldsCloseTheOldestAndTheJobGoesOn() throws Exception {
        int n = 2;
        int strangers = StoreServer.SPARE_STRANGERS + n + 200;
        List<Socket> held = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try (StoreServer server = new StoreServer(new InetSocketAddress("127.0.0.1", 0), TOKEN, n, 60_000)) {
            byte[] half = new byte[(16 << 10) - 1];
            for (int i = 0; i < strangers; i++) {
                Socket s = new Socket();
                held.add(s);
                s.connect(at(server), 5_000);
                DataOutputStream o = new DataOutputStream(new java.io.BufferedOutputStream(s.getOutputStream()));
                o.writeInt(Wire.MAGIC);
                o.writeInt(JobProof.VERSION);
                o.write(new byte[12 + JobProof.ID_BYTES + JobProof.ANSWER_BYTES]);
                o.writeInt(16 << 10);
                o.write(half);
                o.flush();
            }
            // the first ones came first: the store closes them once the later ones are in (its challenge, then the end),
            // not after the 30 s a stranger is given: a read still open at half that fails
            for (Socket s : held.subList(0, 200)) {
                s.setSoTimeout((int) StoreServer.HELLO_MILLIS / 2);
                s.getInputStream().readAllBytes();
            }
            List<Future<byte[][]>> got = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                got.add(pool.submit(() -> {
                    try (StoreClient c = StoreClient.connect(at(server), TOKEN, rank, n, 30_000, "-n 5")) {
                        return c.allGather("after the strangers", bytes(String.valueOf(rank)));
                    }
                }));
            }
            for (Future<byte[][]> f : got) {
                assertArrayEquals(new byte[][] {bytes("0"), bytes("1")}, f.get(60, TimeUnit.SECONDS));
            }
        } finally {
            for (Socket s : held) {
                s.close();
            }
            pool.shutdownNow();
        }
    }

    /** One connection of the flood: random bytes, a hello of random fields, a forged hello, or connect-and-reset. */
    private static void flood(StoreServer server, Random random, int kind, AtomicInteger refusedForgeries) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(at(server), 5_000);
            OutputStream out = s.getOutputStream();
            byte[] junk = new byte[1 + random.nextInt(2048)];
            random.nextBytes(junk);
            switch (kind) {
                case 0 -> out.write(junk);
                case 1 -> {
                    DataOutputStream o = new DataOutputStream(out);
                    o.writeInt(Wire.MAGIC);
                    o.writeInt(JobProof.VERSION);
                    o.write(junk);
                }
                case 2 -> {
                    // the job's id is public: a stranger can name the job, not answer its challenge
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    Wire.readChallenge(in);
                    DataOutputStream o = new DataOutputStream(out);
                    o.writeInt(Wire.MAGIC);
                    o.writeInt(JobProof.VERSION);
                    o.write(JobProof.id(TOKEN));
                    o.writeInt(random.nextInt(2));
                    o.writeInt(1);
                    o.writeInt(2);
                    o.write(junk, 0, Math.min(junk.length, JobProof.ANSWER_BYTES));
                    o.write(new byte[JobProof.ANSWER_BYTES - Math.min(junk.length, JobProof.ANSWER_BYTES)]);
                    Wire.writeString(o, "");
                    Wire.writeString(o, "intruder");
                    o.flush();
                    if (in.readInt() == Wire.FAILED) {
                        in.readInt();
                        if (Wire.readString(in, 4096).contains("did not prove the job's secret")) {
                            refusedForgeries.incrementAndGet();
                        }
                    }
                }
                default -> s.setSoLinger(true, 0);
            }
        } catch (IOException e) {
            // the store closed a garbage connection first: what it should do
        }
    }
}
