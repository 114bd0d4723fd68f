package dev.ncclbench.cli;

import dev.ncclbench.ChildJvm;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `ncclbench explain LOG | head`: a reader that goes away is a normal end for every command (exit as the command
 * ends, no error line), as for any Unix tool; it was exit 1, the internal-error code, with "cannot write". A full
 * disk is still an error. Real child processes: the pipe's reader is gone before the command writes its first byte
 * (a FIFO opened, then closed by the shell before it starts the command), so every write is refused, whatever the
 * machine's speed; `| head` meets the same refusal after its first lines.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClosedPipeTest {
    private static final String LOG = "java/test-resources/nccllog/seeds/ib-without-gdrdma.log";

    @TempDir
    Path dir;

    /** Runs `ncclbench ARGS` with its stdout a pipe whose reader has gone. */
    private Result intoAClosedPipe(String... args) throws Exception {
        Path fifo = dir.resolve("out.fifo");
        Assumptions.assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "needs mkfifo");
        // fd 3 reads and writes, so opening fd 4 for writing does not wait for a reader; closing 3 leaves none
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", "exec 3<>\"$1\" 4>\"$1\" 3<&-; shift; exec \"$@\" >&4 4>&-",
                "bash", fifo.toString()));
        cmd.addAll(ChildJvm.command(args));
        return run(new ProcessBuilder(cmd));
    }

    private Result run(ProcessBuilder pb) throws Exception {
        Path err = dir.resolve("err.txt");
        Process p = pb.redirectError(err.toFile()).start();
        assertTrue(p.waitFor(90, TimeUnit.SECONDS), "did not end");
        return new Result(p.exitValue(), Files.readString(err, StandardCharsets.UTF_8));
    }

    private record Result(int code, String err) {
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rules", "help sweep", "explain " + LOG, "explain --json - " + LOG, "env"})
    void aReaderThatGoesAwayIsANormalEnd(String line) throws Exception {
        Result r = intoAClosedPipe(line.split(" "));
        assertFalse(r.err().contains("cannot write") || r.err().contains("internal error"), r.err());
        int alone = run(new ProcessBuilder(ChildJvm.command(line.split(" ")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)).code();
        assertEquals(alone, r.code(), "the command's own exit code, as with a reader: " + r.err());
    }

    @Test
    void aFullDiskIsStillAnError() throws Exception {
        Assumptions.assumeTrue(Files.isWritable(Path.of("/dev/full")), "needs /dev/full");
        Result r = run(new ProcessBuilder(ChildJvm.command("rules")).redirectOutput(new java.io.File("/dev/full")));
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("ncclbench: cannot write to standard output (is the disk full?)"), r.err());
    }
}
