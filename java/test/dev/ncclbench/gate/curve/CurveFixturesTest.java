package dev.ncclbench.gate.curve;

import dev.ncclbench.diagnosis.FabricCatalog;
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
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The curve book against java/test-resources/curve/*.txt (made by make-curves.py): tables as `ncclbench sweep`
 * prints them, each naming the fabric it is judged against and the rules it fires; every rule fires in one.
 */
class CurveFixturesTest {
    private static final Path DIR = Path.of(System.getProperty("ncclbench.basedir", "."), "java", "test-resources",
            "curve");

    private static List<Path> fixtures() throws IOException {
        try (Stream<Path> s = Files.list(DIR)) {
            return s.filter(p -> p.toString().endsWith(".txt")).sorted().toList();
        }
    }

    private static String header(List<String> lines, String key) {
        return lines.stream().filter(l -> l.startsWith("# " + key + ":")).findFirst()
                .map(l -> l.substring(key.length() + 3).strip()).orElseThrow(() -> new AssertionError("no " + key));
    }

    /** The table's out-of-place time and busbw per size, judged as the gate judges a run with these settings. */
    static Curve curve(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        String collective = header(lines, "Collective test starting").replace("_perf", "");
        List<Curve.Point> points = new ArrayList<>();
        for (String l : lines) {
            if (!l.startsWith("#") && !l.isBlank()) {
                String[] c = l.strip().split("\\s+");
                points.add(new Curve.Point(Long.parseLong(c[0]), Double.parseDouble(c[5]), Double.parseDouble(c[7])));
            }
        }
        String fabric = null;
        OptionalDouble floor = OptionalDouble.empty();
        int nodes = 1;
        boolean socketRun = false;
        for (String kv : header(lines, "curve").split(" ")) {
            String k = kv.substring(0, kv.indexOf('=')), v = kv.substring(kv.indexOf('=') + 1);
            switch (k) {
                case "fabric" -> fabric = v;
                case "socket_floor" -> floor = v.equals("none") ? OptionalDouble.empty()
                        : OptionalDouble.of(Double.parseDouble(v));
                case "nodes" -> nodes = Integer.parseInt(v);
                case "socket_run" -> socketRun = Boolean.parseBoolean(v);
                default -> throw new AssertionError("unknown curve setting " + kv);
            }
        }
        return new Curve(Map.of(collective, points), FabricCatalog.builtIn().get(fabric), floor, nodes, socketRun);
    }

    private static List<String> fires(Path file) throws IOException {
        String ids = header(Files.readAllLines(file), "fires");
        return ids.isEmpty() ? List.of() : Arrays.asList(ids.split(" "));
    }

    @TestFactory
    Stream<DynamicTest> everyCurveFiresTheRulesItNames() throws IOException {
        List<Path> files = fixtures();
        assertTrue(files.size() >= 5, "curve fixtures missing: " + files);
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
            List<String> actual = CurveRules.book().run(curve(f), Set.of()).stream().map(Finding::ruleId)
                    .distinct().toList();
            assertEquals(fires(f), actual, f.getFileName().toString());
        }));
    }

    @Test
    void everyCurveRuleFiresInSomeFixture() throws IOException {
        Set<String> fired = new TreeSet<>();
        for (Path f : fixtures()) {
            fired.addAll(fires(f));
        }
        List<String> missing = CurveRules.book().rules().stream().map(Rule::id).filter(id -> !fired.contains(id))
                .toList();
        assertEquals(List.of(), missing, "curve rules without a fixture that fires them");
    }
}
