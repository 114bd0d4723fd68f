package dev.ncclbench.output;

import dev.ncclbench.NcclbenchException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes a file whole or not at all: a reader (node-exporter's textfile collector, a CI job, a crashed run's
 * recovery) never sees half a file, and a failed write leaves the old file as it was.
 */
public final class AtomicFile {
    private AtomicFile() {
    }

    /**
     * Writes to a temporary file in the target's folder (a rename is atomic only within one file system), forces
     * it to disk, makes it rw-r--r-- and renames it over the target.
     *
     * @throws java.nio.file.AtomicMoveNotSupportedException when the folder's file system cannot rename atomically
     */
    public static void write(Path file, byte[] content) throws IOException {
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            // renaming over a device node (/dev/full) or a pipe would replace it with a regular file
            throw new IOException(file + " exists and is not a regular file (a device, a pipe, a folder or a link"
                    + " to one)");
        }
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer b = ByteBuffer.wrap(content);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            readableByAll(tmp);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        forceDirectory(dir);
    }

    /** The text as UTF-8. */
    public static void write(Path file, String content) throws IOException {
        write(file, content.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A file an option names (--junit, --prometheus, --html ...), checked as {@link OutputTarget#check} checks it
     * (no folder is created for it); a failure, a full disk included, is a usage error (exit 2) naming it.
     */
    public static void writeOutput(Path file, byte[] content) {
        try {
            Path dir = file.toAbsolutePath().normalize().getParent();
            if (dir == null || !Files.isDirectory(dir)) {
                throw new IOException("the folder " + dir + " does not exist");
            }
            write(file, content);
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot write " + file + ": " + e.getMessage());
        }
    }

    /** The text as UTF-8; a failure is a usage error naming the file. */
    public static void writeOutput(Path file, String content) {
        writeOutput(file, content.getBytes(StandardCharsets.UTF_8));
    }

    /** rw-r--r--: temporary files are created rw-------, but results and textfiles are read by other users' tools. */
    public static void readableByAll(Path file) {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        } catch (UnsupportedOperationException | IOException e) {
            // not a POSIX file system: its default permissions stand
        }
    }

    /** Makes the rename itself durable. Not every platform can open a folder; then the rename is as durable as it gets. */
    private static void forceDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Best effort by design: the file is complete either way; only its durability across a power cut differs.
        }
    }
}
