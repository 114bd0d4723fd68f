package dev.ncclbench.gate;

import dev.ncclbench.output.AtomicFile;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The commands' name for {@link AtomicFile#writeOutput}: kept while the commands are reshaped (issue 23 item 1),
 * which lets them call AtomicFile themselves and this class go.
 */
public final class GateOutputs {
    private GateOutputs() {
    }

    public static void write(Path file, String content) {
        AtomicFile.writeOutput(file, content.getBytes(StandardCharsets.UTF_8));
    }

    public static void write(Path file, byte[] content) {
        AtomicFile.writeOutput(file, content);
    }
}
