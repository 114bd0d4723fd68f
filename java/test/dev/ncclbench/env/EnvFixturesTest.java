package dev.ncclbench.env;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Rule;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The env book against the machines of java/test-resources/env (see its README): each reports the ENV-* ids it
 * names, in env's order, and every rule of the book fires on one machine.
 */
class EnvFixturesTest {
    private static final Path DIR = Path.of(System.getProperty("ncclbench.basedir", "."), "java", "test-resources",
            "env");

    private static List<Path> machines() throws IOException {
        try (Stream<Path> s = Files.list(DIR)) {
            return s.filter(Files::isDirectory).sorted().toList();
        }
    }

    private static List<String> fires(Path machine) throws IOException {
        String line = Files.readAllLines(machine.resolve("machine.txt")).stream()
                .filter(l -> l.startsWith("# fires:")).findFirst().orElseThrow().substring(8).strip();
        return line.isEmpty() ? List.of() : Arrays.asList(line.split(" "));
    }

    /** What NativeLibraries.find and the probe child would have said on that machine. */
    static List<Finding> missing(Path machine) throws IOException {
        return missing(machine, Set.of());
    }

    static List<Finding> missing(Path machine, Set<String> ignored) throws IOException {
        Map<String, String> found = new HashMap<>();
        List<String> gpus = new ArrayList<>();
        for (String l : Files.readAllLines(machine.resolve("machine.txt"))) {
            if (l.startsWith("#") || l.isBlank()) {
                continue;
            }
            String k = l.substring(0, l.indexOf('=')), v = l.substring(l.indexOf('=') + 1);
            if (k.equals("gpu")) {
                gpus.add(v);
            } else {
                found.put(k, v);
            }
        }
        NativeLibraries.Report libs = new NativeLibraries.Report(lib(NativeLibraries.NCCL, found.get("nccl")),
                lib(NativeLibraries.CUDART, found.get("cudart")), lib(NativeLibraries.DRIVER, found.get("driver")),
                lib(NativeLibraries.NVML, found.get("nvml")), found.get("driver_version"), gpus);
        ProbeResult probe = null;
        Path child = machine.resolve("probe-child.json");
        if (Files.exists(child)) {
            Path log = machine.resolve("nccl-probe.log");
            probe = ProbeRunner.parse(new ObjectMapper().readTree(child.toFile()),
                    Files.exists(log) ? Files.readAllLines(log) : List.of(), log.toString());
        }
        return Missing.of(libs, probe, null, ignored);
    }

    private static NativeLibraries.Found lib(String name, String path) {
        return new NativeLibraries.Found(name, path == null || path.equals("none") ? null : Path.of(path),
                path == null || path.equals("none") ? null : "test", List.of());
    }

    @TestFactory
    Stream<DynamicTest> everyMachineReportsTheIdsItNames() throws IOException {
        List<Path> all = machines();
        assertTrue(all.size() >= 4, "env fixtures missing: " + all);
        return all.stream().map(m -> DynamicTest.dynamicTest(m.getFileName().toString(), () ->
                assertEquals(fires(m), missing(m).stream().map(Finding::ruleId).toList(), m.toString())));
    }

    @Test
    void everyEnvRuleFiresOnSomeMachine() throws IOException {
        Set<String> fired = new TreeSet<>();
        for (Path m : machines()) {
            fired.addAll(fires(m));
        }
        List<String> missing = EnvRules.book().rules().stream().map(Rule::id).filter(id -> !fired.contains(id))
                .toList();
        assertEquals(List.of(), missing, "env rules without a machine that fires them");
    }

    @Test
    void anIgnoredIdIsNotReported() throws IOException {
        List<Finding> f = missing(DIR.resolve("bare-laptop"), Set.of(Missing.NO_CUDART, Missing.NO_GPU));
        assertEquals(List.of(Missing.NO_NCCL, Missing.NO_DRIVER), f.stream().map(Finding::ruleId).toList());
    }
}
