package dev.ncclbench.output;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class AtomicFileTest {
    @TempDir
    Path dir;

    @Test
    void writesTheBytesAndLeavesNoTemporaryFile() throws IOException {
        Path file = dir.resolve("sub/result.json");
        AtomicFile.write(file, "first\n");
        AtomicFile.write(file, "second ü\n");
        assertEquals("second ü\n", Files.readString(file));
        assertEquals(List.of(file), files(file.getParent()));
    }

    @Test
    void isReadableByAll() throws IOException {
        assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"), "needs a POSIX file system");
        Path file = dir.resolve("gate.prom");
        AtomicFile.write(file, new byte[]{1, 2, 3});
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void aFailedWriteLeavesTheOldFileAsItWas() throws IOException {
        Path file = dir.resolve("report.html");
        AtomicFile.write(file, "old");
        // The target is now a non-empty folder: the rename over it fails after the temporary file was written.
        Path folder = dir.resolve("taken");
        Files.createDirectories(folder.resolve("inside"));
        assertThrows(IOException.class, () -> AtomicFile.write(folder, "new"));
        assertEquals("old", Files.readString(file));
        assertEquals(List.of(folder.resolve("inside")), files(folder));
        assertEquals(List.of(file, folder), files(dir));
    }

    @Test
    void anOutputThatCannotBeWrittenIsAUsageErrorNamingIt() throws IOException {
        Path folder = dir.resolve("taken");
        Files.createDirectories(folder.resolve("inside"));
        NcclbenchException e = assertThrows(NcclbenchException.class, () -> AtomicFile.writeOutput(folder, new byte[0]));
        assertEquals(ExitCode.USAGE, e.exitCode());
        assertTrue(e.getMessage().startsWith("cannot write " + folder + ": "), e.getMessage());
    }

    private static List<Path> files(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.sorted().toList();
        }
    }
}
