package dev.ncclbench.gate;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.output.AtomicFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** An output file the user named (--junit, --prometheus, --html ...): written whole, a failure is exit 2 naming it. */
public final class GateOutputs {
    private GateOutputs() {
    }

    public static void write(Path file, String content) {
        write(file, content.getBytes(StandardCharsets.UTF_8));
    }

    public static void write(Path file, byte[] content) {
        try {
            AtomicFile.write(file, content);
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot write " + file + ": " + e.getMessage());
        }
    }
}
