package dev.ncclbench.nccllog;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every fixture log read in parallel gives the evidence of reading them one after the other: a collection that
 * Accumulator.merge forgets shows up here as soon as one fixture fills it.
 */
class ParallelReadTest {
    @Test
    void everyFixtureTogetherInParallelEqualsOneAfterTheOther() throws IOException {
        Path root = Path.of(System.getProperty("ncclbench.basedir", "."), "java", "test-resources", "nccllog");
        List<Path> logs;
        try (Stream<Path> s = Files.walk(root)) {
            logs = s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
        }
        assertTrue(logs.size() > 20, "fixtures: " + logs.size());
        NcclLogReader one = new NcclLogReader();
        for (Path f : logs) {
            try (InputStream in = Files.newInputStream(f)) {
                one.read(in, f.toString());
            }
        }
        NcclLogEvidence sequential = one.evidence();
        NcclLogEvidence parallel = new NcclLogReader().read(logs).evidence();
        assertEquals(sequential, parallel);
        assertTrue(!parallel.warnings().isEmpty() && !parallel.connections().isEmpty() && !parallel.env().isEmpty());
    }
}
