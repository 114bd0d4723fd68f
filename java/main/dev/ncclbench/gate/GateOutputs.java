package dev.ncclbench.gate;

import dev.ncclbench.NcclbenchException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes one output file atomically (node-exporter's textfile collector must never read half a file). */
public final class GateOutputs {
    private GateOutputs() {
    }

    /** Temporary files are private (0600); a report or a textfile is for other users (node-exporter) too. */
    public static void readableByAll(Path p) {
        try {
            Files.setPosixFilePermissions(p, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        } catch (IOException | UnsupportedOperationException e) {
            // not a POSIX file system: its default permissions stand
        }
    }

    public static void write(Path file, String content) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path tmp = Files.createTempFile(parent, "." + file.getFileName() + ".", ".tmp");
            try {
                Files.writeString(tmp, content, StandardCharsets.UTF_8);
                readableByAll(tmp);
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot write " + file + ": " + e.getMessage());
        }
    }
}
