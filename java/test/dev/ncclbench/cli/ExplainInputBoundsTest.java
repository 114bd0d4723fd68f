package dev.ncclbench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * explain on input without end or without lines: /dev/zero, /dev/full and binary files end with exit 2 "not an
 * NCCL log" after the first MiB (the timeouts only keep a regression from hanging the suite); real text on stdin is
 * still read; a line past the limit is cut and counted.
 */
class ExplainInputBoundsTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(args, new PrintWriter(out), new PrintWriter(err));
    }

    @Test
    @Timeout(60)
    @EnabledOnOs(OS.LINUX)
    void devZeroAndDevFullAreNotLogs() {
        assertEquals(2, run("explain", "/dev/zero"), err.toString());
        assertTrue(err.toString().contains("/dev/zero: not an NCCL log: no NCCL line and binary data"), err.toString());
        assertEquals(2, run("explain", "/dev/full"), err.toString());
        assertTrue(err.toString().contains("/dev/full: not an NCCL log"), err.toString());
    }

    @Test
    @Timeout(60)
    void aBinaryFileIsNotALog(@TempDir Path tmp) throws IOException {
        byte[] random = new byte[8 << 20];
        new Random(42).nextBytes(random);
        Path bin = Files.write(tmp.resolve("core.bin"), random);
        assertEquals(2, run("explain", bin.toString()), err.toString());
        assertTrue(err.toString().contains("core.bin: not an NCCL log: no NCCL line and binary data"), err.toString());
    }

    @Test
    @Timeout(60)
    void binaryOnStdinIsNotALog() {
        ExplainCommand cmd = command();
        cmd.stdin = new java.io.InputStream() { // endless NUL bytes, like a pipe from /dev/zero
            @Override
            public int read() {
                return 0;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                java.util.Arrays.fill(b, off, off + len, (byte) 0);
                return len;
            }
        };
        assertEquals(2, new picocli.CommandLine(cmd).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .setExecutionExceptionHandler((ex, c, parsed) -> {
                    err.write(ex.getMessage());
                    return ((dev.ncclbench.NcclbenchException) ex).exitCode().code;
                }).execute("-"));
        assertTrue(err.toString().contains("stdin: not an NCCL log"), err.toString());
    }

    @Test
    void aBinaryFileInADirectoryIsSkippedAndSaidSo(@TempDir Path tmp) throws IOException {
        Files.writeString(tmp.resolve("nccl.h.1.log"), "h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n");
        byte[] random = new byte[64 << 10];
        new Random(7).nextBytes(random);
        Files.write(tmp.resolve("core.1"), random);
        assertEquals(0, run("explain", tmp.toString()), out + " " + err);
        assertTrue(err.toString().contains("skipped " + tmp.resolve("core.1") + ": not an NCCL log"), err.toString());
    }

    @Test
    void textOnStdinIsReadAndALongLineIsCutAndCounted() {
        ExplainCommand cmd = command();
        String text = "h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n" + "x".repeat(100_000) + "\n";
        cmd.stdin = new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII));
        assertEquals(0, new picocli.CommandLine(cmd).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute("-", "--json", "-"), err.toString());
        assertTrue(out.toString().contains("\"truncated\" : 1"), out.toString());
    }

    private static ExplainCommand command() {
        return new ExplainCommand();
    }
}
