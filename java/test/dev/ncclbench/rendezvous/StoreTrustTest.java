package dev.ncclbench.rendezvous;

import dev.ncclbench.launch.MultiProcessTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The store's trust at its edges, with rank 0 a real child JVM: two jobs given one secret are kept apart (the token
 * binds the secret to the launcher, the job id and the world size), and a process that holds the secret and took a
 * rank cannot exhaust rank 0's heap by opening gathers of 16 MiB under tag after tag.
 */
@Tag("multiprocess")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StoreTrustTest {
    private static final String SECRET = "4f7a2c9e1b6d3f8a0c5e7b2d9f4a6c1e8b3d5f0a7c2e9b4d6f1a3c8e5b0d7f2a";

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Process start(String name, List<String> args, Map<String, String> env, String heap) throws IOException {
        List<String> cmd = new ArrayList<>(MultiProcessTest.jvm(heap));
        cmd.add("sweep");
        cmd.addAll(List.of("--no-progress", "--backend", "socket", "-b", "1K", "-e", "1K", "-n", "1", "-w", "0",
                "--out", dir.resolve("runs-" + name).toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().clear();
        pb.environment().putAll(MultiProcessTest.cleanEnv());
        pb.environment().put("NCCL_SOCKET_IFNAME", "lo");
        pb.environment().putAll(env);
        pb.redirectOutput(dir.resolve(name + ".out").toFile());
        pb.redirectError(dir.resolve(name + ".err").toFile());
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private String read(String name) throws IOException {
        return Files.readString(dir.resolve(name), StandardCharsets.UTF_8);
    }

    private int exit(Process p, String name) throws Exception {
        assertTrue(p.waitFor(150, TimeUnit.SECONDS), name + " did not end: " + read(name + ".err"));
        return p.exitValue();
    }

    /** torchrun's variables for rank {@code rank} of 2 of run {@code runId}, with the shared secret. */
    private static Map<String, String> torchrun(int rank, int port, String runId) {
        return Map.of("RANK", String.valueOf(rank), "WORLD_SIZE", "2", "LOCAL_RANK", "0", "LOCAL_WORLD_SIZE", "1",
                "MASTER_ADDR", "127.0.0.1", "MASTER_PORT", String.valueOf(port), "TORCHELASTIC_RUN_ID", runId,
                "NCCLBENCH_TOKEN", SECRET);
    }

    @Test
    void twoJobsGivenOneSecretAreKeptApart() throws Exception {
        int port = MultiProcessTest.freePortPair();
        Process a0 = start("a0", List.of("-T", "60"), torchrun(0, port, "jobA"), "256m");
        // job B's rank 1, same secret, same address: refused in one line as another job, and the job waits for its own
        Process b1 = start("b1", List.of("-T", "60"), torchrun(1, port, "jobB"), "256m");
        assertEquals(2, exit(b1, "b1"), read("b1.err"));
        String refused = read("b1.err").strip();
        assertEquals(1, refused.lines().count(), refused);
        assertTrue(refused.contains("refused rank 1: wrong job token: this store belongs to another job")
                && refused.endsWith("; this process: torchrun job jobB, 2 ranks"), refused);
        assertTrue(a0.isAlive(), read("a0.err"));
        Process a1 = start("a1", List.of("-T", "60"), torchrun(1, port, "jobA"), "256m");
        assertEquals(0, exit(a1, "a1"), read("a1.err"));
        assertEquals(0, exit(a0, "a0"), read("a0.err"));
    }

    @Test
    void aProvenRankOpeningGathersUnderTagAfterTagCannotExhaustRankZero() throws Exception {
        int port = MultiProcessTest.freePortPair();
        // rank 0 with 128 MiB of heap; ten 16 MiB payloads held would be 160
        Process rank0 = start("rank0", List.of("--rank", "0", "--world-size", "2", "--rendezvous", "127.0.0.1:" + port,
                "-T", "5"), Map.of("NCCLBENCH_TOKEN", SECRET), "128m");
        byte[] token = JobProof.token(SECRET, "flags", null, 2);
        try (Socket s = connect(port, rank0)) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            Wire.writeHello(out, token, Wire.readChallenge(in), 1, 1, 2, "", "attacker");
            out.flush();
            assertEquals(Wire.OK, in.readInt(), "a holder of the secret takes rank 1");
            assertEquals(Wire.OK, in.readInt());
            byte[] payload = new byte[Wire.MAX_PAYLOAD];
            for (int tag = 0; tag < 10; tag++) {
                out.writeInt(1);
                out.writeInt(Wire.OP_GATHER);
                out.writeInt(Wire.ALL);
                out.writeInt(0);
                Wire.writeString(out, "made-up tag " + tag);
                Wire.writeBytes(out, payload);
                out.flush();
            }
            // rank 0 holds one gather of rank 1 at a time: it times out waiting for rank 1 where it is itself, and says so
            assertEquals(5, exit(rank0, "rank0"), read("rank0.err"));
        }
        String err = read("rank0.err");
        assertFalse(err.contains("OutOfMemoryError"), err);
        assertTrue(err.contains("rank 1 did not reach"), err);
        assertTrue(err.contains("on attacker"), err);
    }

    private static Socket connect(int port, Process rank0) throws Exception {
        while (true) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
                return s;
            } catch (IOException notYet) {
                s.close();
                assertTrue(rank0.isAlive(), "rank 0 ended before it listened");
                Thread.sleep(100);
            }
        }
    }
}
