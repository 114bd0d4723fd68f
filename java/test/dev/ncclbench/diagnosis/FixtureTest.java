package dev.ncclbench.diagnosis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every fixture under java/test-resources/nccllog (one folder per NCCL era, seeds/, real/) against the expected
 * JSON next to it. Regenerate after a deliberate change with -Dgolden.update=true and review the diff.
 */
class FixtureTest {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static Path fixtures() {
        return Path.of(System.getProperty("ncclbench.basedir", "."), "java", "test-resources", "nccllog");
    }

    static NcclLogEvidence read(String relative) throws IOException {
        Path p = fixtures().resolve(relative);
        // cite fixtures by their path under nccllog/, whatever the working directory
        try (var in = Files.newInputStream(p)) {
            return new NcclLogReader().read(in, relative).evidence();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyFixtureMatchesItsExpectedJson() throws IOException {
        List<Path> logs;
        try (Stream<Path> s = Files.walk(fixtures())) {
            logs = s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
        }
        assertTrue(logs.size() >= 14, "fixtures missing: " + logs);
        boolean update = dev.ncclbench.Goldens.updating();
        return logs.stream().map(log -> DynamicTest.dynamicTest(fixtures().relativize(log).toString(), () -> {
            String rel = fixtures().relativize(log).toString();
            NcclLogEvidence e = read(rel);
            ExplainSummary s = ExplainSummary.of(e, Diagnoser.diagnose(e));
            Path expected = Path.of(log.toString().replaceAll("\\.log$", ".expected.json"));
            String actual = JSON.writeValueAsString(s) + "\n";
            if (update) {
                Files.writeString(expected, actual);
            }
            assertTrue(Files.exists(expected), "no expected JSON " + expected);
            JsonNode want = JSON.readTree(Files.readString(expected));
            assertEquals(want, JSON.readTree(actual), rel + "\n" + actual);
        }));
    }

    /** A new rule is one class plus one fixture: every rule of the book fires in at least one expected JSON. */
    @org.junit.jupiter.api.Test
    void everyRuleHasAFixtureThatFiresIt() throws IOException {
        java.util.Set<String> fired = new java.util.TreeSet<>();
        try (Stream<Path> s = Files.walk(fixtures())) {
            for (Path p : s.filter(x -> x.toString().endsWith(".expected.json")).toList()) {
                JSON.readTree(p.toFile()).get("rules").forEach(n -> fired.add(n.asText()));
            }
        }
        List<String> missing = dev.ncclbench.diagnosis.rules.ExplainRules.book().rules().stream()
                .map(dev.ncclbench.finding.Rule::id).filter(id -> !fired.contains(id)).toList();
        assertEquals(List.of(), missing, "rules without a fixture that fires them");
    }
}
