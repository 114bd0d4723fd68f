package dev.ncclbench.nccllog;

import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A 1 GiB log streams through `ncclbench explain -` in a JVM whose heap is 48 MiB: constant memory is
 * proved by the run finishing, not by sampling a heap.
 */
class OneGigabyteLogTest {
    @Test
    void explainReadsOneGigabyteFromStdinIn48MegabytesOfHeap() throws Exception {
        Path err = Files.createTempFile("explain-1g", ".err");
        Path out = Files.createTempFile("explain-1g", ".out");
        try {
            List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx48m",
                    "-cp", System.getProperty("java.class.path"), "dev.ncclbench.cli.Main", "explain", "-");
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            byte[] buf = new byte[1 << 16];
            try (GeneratedLog log = new GeneratedLog(1L << 30); OutputStream stdin = p.getOutputStream()) {
                int k;
                while ((k = log.read(buf, 0, buf.length)) > 0) {
                    stdin.write(buf, 0, k);
                }
            }
            assertTrue(p.waitFor(180, TimeUnit.SECONDS), "explain did not finish a 1 GiB log in 180 s");
            String said = Files.readString(out) + Files.readString(err);
            assertTrue(!said.contains("OutOfMemoryError"), said);
            // the generated log shows GPUDirect RDMA connections: a healthy path, so exit 0
            assertTrue(p.exitValue() == 0 || p.exitValue() == 6, "exit " + p.exitValue() + ": " + said);
            assertTrue(said.contains("lines"), said);
        } finally {
            Files.deleteIfExists(err);
            Files.deleteIfExists(out);
        }
    }
}
