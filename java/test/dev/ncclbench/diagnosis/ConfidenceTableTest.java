package dev.ncclbench.diagnosis;

import dev.ncclbench.nccllog.NcclLogEvidence;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How often explain's verdict (path and health) is right, per confidence level, over every fixture of the project
 * against nccllog/truth.tsv, which says what each log shows happened independently of explain's output. "certain"
 * must be right every time and "likely" at least 9 times in 10; docs/explain.md prints the table this computes
 * (rewritten with -Dgolden.update=true).
 */
class ConfidenceTableTest {
    private static final String BEGIN = "<!-- confidence-table: ConfidenceTableTest writes this table -->";
    private static final String END = "<!-- /confidence-table -->";

    /** One fixture's right verdict: the paths that are right and the health. */
    private record Truth(Set<String> paths, String health) {
    }

    private static Map<String, Truth> truth() throws IOException {
        Map<String, Truth> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(FixtureTest.fixtures().resolve("truth.tsv"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            assertTrue(f.length >= 3, "truth.tsv: fixture, path(s), health: " + line);
            out.put(f[0], new Truth(Set.of(f[1].split("\\|")), f[2]));
        }
        return out;
    }

    @Test
    void certainIsAlwaysRightAndLikelyNineTimesInTen() throws IOException {
        Map<String, Truth> truth = truth();
        List<String> logs;
        try (Stream<Path> s = Files.walk(FixtureTest.fixtures())) {
            logs = s.filter(p -> p.toString().endsWith(".log")).map(p -> FixtureTest.fixtures().relativize(p)
                    .toString()).sorted().toList();
        }
        Set<String> missing = new TreeSet<>(logs);
        missing.removeAll(truth.keySet());
        assertEquals(Set.of(), missing, "fixtures without a row in truth.tsv");
        Map<String, int[]> byLevel = new LinkedHashMap<>();
        for (String level : List.of("certain", "likely", "unknown")) {
            byLevel.put(level, new int[2]);
        }
        List<String> wrong = new ArrayList<>();
        for (String rel : logs) {
            NcclLogEvidence e = FixtureTest.read(rel);
            ExplainSummary s = ExplainSummary.of(e, Diagnoser.diagnose(e));
            Truth t = truth.get(rel);
            boolean right = t.paths().contains(s.path()) && t.health().equals(s.health());
            int[] n = byLevel.computeIfAbsent(s.confidence(), k -> new int[2]);
            n[0]++;
            if (right) {
                n[1]++;
            } else {
                wrong.add(s.confidence() + " " + rel + ": " + s.path() + " " + s.health() + ", right is "
                        + String.join("|", new TreeSet<>(t.paths())) + " " + t.health());
            }
        }
        int[] certain = byLevel.get("certain");
        int[] likely = byLevel.get("likely");
        assertEquals(certain[0], certain[1], "a wrong verdict called certain: " + wrong);
        assertTrue(likely[1] * 10 >= likely[0] * 9, "likely right less than 90%: " + wrong);
        assertTrue(certain[0] > 0 && likely[0] > 0, "both levels need fixtures");

        String table = table(byLevel, wrong);
        Path doc = Path.of(System.getProperty("ncclbench.basedir", "."), "docs", "explain.md");
        String text = Files.readString(doc);
        int a = text.indexOf(BEGIN);
        int b = text.indexOf(END);
        assertTrue(a >= 0 && b > a, "docs/explain.md has no " + BEGIN + " ... " + END + " section");
        String shown = text.substring(a + BEGIN.length(), b);
        if (dev.ncclbench.Goldens.updating()) {
            Files.writeString(doc, text.substring(0, a + BEGIN.length()) + table + text.substring(b));
        } else {
            assertEquals(table, shown, "docs/explain.md's table is not what the fixtures give; rerun with"
                    + " -Dgolden.update=true");
        }
    }

    private static String table(Map<String, int[]> byLevel, List<String> wrong) {
        StringBuilder sb = new StringBuilder("\n| confidence | fixtures | verdict right | share |\n|---|---:|---:|---:|\n");
        int all = 0;
        int right = 0;
        for (var x : byLevel.entrySet()) {
            int[] n = x.getValue();
            all += n[0];
            right += n[1];
            sb.append("| ").append(x.getKey()).append(" | ").append(n[0]).append(" | ").append(n[1]).append(" | ")
                    .append(n[0] == 0 ? "-" : Math.round(1000.0 * n[1] / n[0]) / 10.0 + "%").append(" |\n");
        }
        sb.append("| all | ").append(all).append(" | ").append(right).append(" | ")
                .append(Math.round(1000.0 * right / all) / 10.0).append("% |\n");
        if (!wrong.isEmpty()) {
            sb.append("\nWrong:\n\n");
            wrong.forEach(w -> sb.append("- ").append(w).append('\n'));
        }
        return sb.toString();
    }
}
