package dev.ncclbench.arch;

import dev.ncclbench.backend.Backend;
import dev.ncclbench.backend.Backends;
import dev.ncclbench.spec.Capability;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Outside backend/, a backend is asked what it can do ({@link Backend#capabilities}, or
 * {@link Backends#capabilitiesOf} for the name a result records), never compared by name: a new backend with
 * sockets or device timing is then judged as such by the gate, the fingerprint, fleet and the table without a
 * change there. A source scan of java/main, over every backend on the class path.
 */
class BackendNamesTest {
    private static final Path MAIN = Path.of(System.getProperty("ncclbench.basedir", "."), "java", "main");
    private static final Path BACKEND = MAIN.resolve(Path.of("dev", "ncclbench", "backend"));

    @Test
    void noBackendNameIsComparedOutsideBackend() throws IOException {
        List<String> names = Backends.names();
        assertTrue(names.containsAll(List.of("nccl", "socket")), "the backends are on the class path: " + names);
        List<Pattern> comparisons = new ArrayList<>();
        for (String n : names) {
            String lit = Pattern.quote("\"" + n + "\"");
            // "socket".equals(x), x.equals("socket"), equalsIgnoreCase, Objects.equals(x, "socket")
            comparisons.add(Pattern.compile(lit + "\\s*\\.\\s*equals(IgnoreCase)?\\s*\\("));
            comparisons.add(Pattern.compile("equals(IgnoreCase)?\\s*\\(\\s*" + lit + "\\s*\\)"));
            comparisons.add(Pattern.compile("Objects\\.equals\\s*\\([^;]*" + lit));
        }
        List<String> found = new ArrayList<>();
        int files = 0;
        try (Stream<Path> all = Files.walk(MAIN)) {
            for (Path f : all.filter(p -> p.toString().endsWith(".java") && !p.startsWith(BACKEND)).toList()) {
                files++;
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    for (Pattern p : comparisons) {
                        Matcher m = p.matcher(lines.get(i));
                        if (m.find()) {
                            found.add(MAIN.relativize(f) + ":" + (i + 1) + ": " + lines.get(i).strip());
                            break;
                        }
                    }
                }
            }
        }
        assertTrue(files > 300, "scanned java/main: " + files + " files");
        assertEquals(List.of(), found, "ask the backend's capabilities (Backends.capabilitiesOf for a recorded name),"
                + " never compare its name");
    }

    /** What the name comparisons decided before is what the capabilities decide now. */
    @Test
    void aRecordedNameAnswersWithItsBackendsCapabilities() {
        for (Backend b : Backends.all()) {
            assertEquals(b.capabilities(), Backends.capabilitiesOf(b.name()), b.name());
        }
        assertTrue(Backends.capabilitiesOf("socket").contains(Capability.SOCKET_INTERFACE), "a socket run is judged as one");
        assertTrue(Backends.capabilitiesOf("socket").contains(Capability.CONCURRENT_GROUPS), "fleet surveys all pairs at once");
        assertFalse(Backends.capabilitiesOf("nccl").contains(Capability.SOCKET_INTERFACE));
        assertFalse(Backends.capabilitiesOf("nccl").contains(Capability.CONCURRENT_GROUPS), "one communicator per GPU");
        assertTrue(Backends.capabilitiesOf("nccl").contains(Capability.EVENT_TIMING), "-R says CUDA event timing");
        assertFalse(Backends.capabilitiesOf("socket").contains(Capability.EVENT_TIMING), "-R says host clock timing");
        // a result of a backend this version lacks claims nothing (it is not judged as a socket run)
        assertEquals(java.util.Set.of(), Backends.capabilitiesOf("mpi"));
        assertEquals(java.util.Set.of(), Backends.capabilitiesOf(null));
    }
}
