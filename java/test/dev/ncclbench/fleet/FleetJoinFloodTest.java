package dev.ncclbench.fleet;

import dev.ncclbench.ExitCode;
import dev.ncclbench.env.Host;
import dev.ncclbench.launch.MultiProcessTest;
import dev.ncclbench.rendezvous.JobProof;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rank 0 of a search is a real child JVM with a small heap (-Xmx96m), and what attacks its join are real
 * connections: a flood of connections that each send only a frame length of 16 MiB (before proving anything), with
 * silent ones beyond what rank 0 holds; and a node that proved the job's secret, then sends ten 16 MiB reports. Rank 0
 * keeps running (no OutOfMemoryError), the real nodes join, and the verdicts name only what misbehaved.
 */
@Tag("multiprocess")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class FleetJoinFloodTest {
    private static final String SECRET = "9e1d4c7b2a5f8e3d6c9b0a1f4e7d2c5b8a3f6e9d0c1b4a7f2e5d8c3b6a9f0e1d";
    /** 16 MiB: the most a fleet message could be before, each allocated before a byte of it came. */
    private static final int BIG = 16 << 20;

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();
    private final List<Socket> held = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Socket s : held) {
            s.close();
        }
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Rank 0 of {@code world} nodes as its own JVM, --node-name node-0, --round-timeout 20, the socket backend on loopback. */
    private Process rank0(int port, int world) throws IOException {
        List<String> cmd = new ArrayList<>(MultiProcessTest.jvm("96m"));
        cmd.addAll(List.of("fleet", "--rank", "0", "--world-size", String.valueOf(world), "--rendezvous", "127.0.0.1:" + port,
                "--node-name", "node-0", "--backend", "socket", "--sizes", "1K", "-n", "5", "-w", "1", "--round-timeout", "20",
                "--out", dir.resolve("runs").toString(), "--json", dir.resolve("fleet.json").toString(),
                "--drain", dir.resolve("drain.txt").toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().clear();
        pb.environment().putAll(MultiProcessTest.cleanEnv());
        pb.environment().put("NCCLBENCH_TOKEN", SECRET);
        pb.environment().put("NCCL_SOCKET_IFNAME", "lo");
        pb.redirectOutput(dir.resolve("rank0.out").toFile());
        pb.redirectError(dir.resolve("rank0.err").toFile());
        Process p = pb.start();
        started.add(p);
        return p;
    }

    /** A connection to rank 0 once it listens (it starts in a JVM of its own: connecting is how to tell). */
    private Socket connect(int port, Process rank0) throws Exception {
        while (true) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
                held.add(s);
                return s;
            } catch (IOException notYet) {
                s.close();
                assertTrue(rank0.isAlive(), "rank 0 ended before it listened: " + read("rank0.err"));
                Thread.sleep(100);
            }
        }
    }

    private String read(String name) throws IOException {
        return Files.readString(dir.resolve(name), StandardCharsets.UTF_8);
    }

    /** A real node of the search, in this JVM: rank {@code rank} of {@code world}, named node-RANK; what it printed. */
    private Future<String> node(ExecutorService pool, int port, int rank, int world) {
        FleetSettings settings = new FleetSettings(List.of(1024L), false, 5, 1, 20, 0, "socket", dev.ncclbench.spec.Defaults.SOCKETS_PER_PEER, "lo");
        Path run = dir.resolve("node-" + rank);
        FleetRun.Options o = new FleetRun.Options(settings, new SearchOptions(null, 2, 2, SearchOptions.DEFAULT_MARGIN,
                OptionalDouble.empty(), 1), null, new FleetRun.Node("127.0.0.1:" + port, rank, world, "node-" + rank, null),
                new FleetRun.Files(run, new FleetOutputs.Paths(null, null, null, null, null), null, false),
                new FleetRun.Baselines(null, null, run), FleetRun.Rails.NONE);
        return pool.submit(() -> {
            StringWriter out = new StringWriter();
            assertEquals(ExitCode.OK, FleetRun.run(o, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true),
                    Host.of(Map.of("NCCLBENCH_TOKEN", SECRET))));
            return out.toString();
        });
    }

    private int exit(Process p) throws Exception {
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "rank 0 did not end: " + read("rank0.out") + read("rank0.err"));
        return p.exitValue();
    }

    @Test
    void aFloodOfUnprovenSixteenMegabyteLengthsLeavesRankZeroRunning() throws Exception {
        int port = MultiProcessTest.freePortPair();
        Process rank0 = rank0(port, 2);
        // 48 x 16 MiB is eight times rank 0's heap: each a 4-byte length and nothing more, held open
        List<Socket> lengths = new ArrayList<>();
        for (int i = 0; i < 48; i++) {
            Socket s = connect(port, rank0);
            new DataOutputStream(s.getOutputStream()).writeInt(BIG);
            lengths.add(s);
        }
        // and more silent ones than rank 0 holds before a hello (one a node and 64): the oldest are closed
        for (int i = 0; i < 100; i++) {
            connect(port, rank0);
        }
        // each length was refused as it came, not waited on: rank 0 (still waiting for rank 1) closed every one
        for (Socket s : lengths) {
            s.setSoTimeout(60_000);
            s.getInputStream().readAllBytes(); // its challenge, then the end; one held open would time out here
        }
        assertTrue(rank0.isAlive(), read("rank0.err"));
        assertTrue(searchEnds(rank0, port, 2, 0).contains("\ndrain: none\n"));
    }

    /**
     * The real rank 1 joins and the search ends: rank 0 exits {@code code}, never out of memory, and judges its own node
     * and rank 1's good; rank 1 says in one line what rank 0 decided. Returns what rank 0 printed.
     */
    private String searchEnds(Process rank0, int port, int world, int code) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            String said = node(pool, port, 1, world).get(180, TimeUnit.SECONDS);
            assertEquals(code, exit(rank0), read("rank0.out") + read("rank0.err"));
            assertTrue(said.startsWith("ncclbench fleet: rank 1 (node-1) done: rank 0 (node-0) decided after "), said);
            String out = read("rank0.out");
            assertTrue(out.matches("(?s).*\n  node-0 +good .*\n  node-1 +good .*"), out);
            assertFalse(read("rank0.err").contains("OutOfMemoryError"), read("rank0.err"));
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aProvenNodesSixteenMegabyteReportsCostItItsPlaceNotRankZerosHeap() throws Exception {
        int port = MultiProcessTest.freePortPair();
        Process rank0 = rank0(port, 3);
        // rank 2 holds the job's secret and joins properly (no flags: none to compare), then sends ten reports of
        // 16 MiB that parse: a round's sample array of 8 million zeros, 64 MiB of doubles each once read
        Socket s = connect(port, rank0);
        DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
        byte[] token = JobProof.token(SECRET, "flags", null, 3);
        Messages.write(out, Messages.Hello.answering(in, token, 2, 3, "node-2", null, null));
        assertEquals(null, Messages.read(in, Messages.Welcome.class, Messages.MAX_SHORT).refused());
        byte[] report = bigReport();
        int sent = 0;
        try {
            for (; sent < 10; sent++) {
                out.writeInt(report.length);
                out.write(report);
                out.flush();
            }
        } catch (IOException dropped) {
            // rank 0 closed it at the first length: what it should do
        }
        assertTrue(sent < 10, "rank 0 read ten 16 MiB reports");
        String text = searchEnds(rank0, port, 3, 6);
        assertTrue(text.matches("(?s).*\n  node-2 +unreachable rank 0 dropped its connection: a message of " + report.length
                + " bytes is over the limit of \\d+ for a report.*"), text);
    }

    /** A report of one group whose samples are 8 million zeros: 16 MiB of JSON that parses. */
    private static byte[] bigReport() {
        String head = "{\"round\":1,\"rank\":2,\"heartbeat\":false,\"groups\":[{\"group\":0,\"error\":null,\"unfinished\":null,"
                + "\"samples\":[{\"collective\":\"all_reduce\",\"bytes\":1024,\"seconds\":[0";
        String tail = "]}]}]}";
        byte[] b = new byte[BIG];
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] t = tail.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(h, 0, b, 0, h.length);
        int end = BIG - t.length;
        for (int i = h.length; i + 1 < end; i += 2) {
            b[i] = ',';
            b[i + 1] = '0';
        }
        Arrays.fill(b, end - ((end - h.length) % 2), end, (byte) ' ');
        System.arraycopy(t, 0, b, end, t.length);
        return b;
    }
}
