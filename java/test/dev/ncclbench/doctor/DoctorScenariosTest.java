package dev.ncclbench.doctor;

import dev.ncclbench.doctor.compare.CompareRules;
import dev.ncclbench.doctor.compare.HostSet;
import dev.ncclbench.doctor.rules.DoctorRules;
import dev.ncclbench.doctor.snapshot.HostCollector;
import dev.ncclbench.doctor.snapshot.HostSnapshot;
import dev.ncclbench.doctor.snapshot.SnapshotJson;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Rule;
import dev.ncclbench.finding.RuleBook;
import org.junit.jupiter.api.Test;

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

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The doctor and compare books against the scenarios of java/test-resources/doctor/scenarios.txt: each line's ids
 * are what doctor reports, and every rule of both books fires on some line (a new rule is one class plus one line).
 */
class DoctorScenariosTest {
    private static final Path DIR = HostFixturesTest.HOSTS.getParent();
    private static final Path SCENARIOS = DIR.resolve("scenarios.txt");
    private static final String COMPARE = "compare ";

    /** A seed host (hosts/NAME), a rail fixture (rails/NAME, unpacked) or a saved snapshot (NAME.json). */
    private static HostSnapshot host(String name) {
        if (name.startsWith("rails/")) {
            return RailTrees.snapshot(name.substring("rails/".length()));
        }
        return name.endsWith(".json") ? SnapshotJson.load(DIR.resolve("snapshots").resolve(name))
                : HostCollector.capture(DIR.resolve("hosts").resolve(name));
    }

    /** "HOST [NAME=value]..." judged by doctor, or "compare HOST HOST..." judged by compare: the ids, worst first. */
    static List<String> ids(String scenario) {
        List<Finding> findings;
        if (scenario.startsWith(COMPARE)) {
            List<HostSnapshot> hosts = Arrays.stream(scenario.substring(COMPARE.length()).split(" "))
                    .map(DoctorScenariosTest::host).toList();
            findings = CompareRules.book().run(new HostSet(hosts), Set.of());
        } else {
            String[] words = scenario.split(" ");
            HostSnapshot s = host(words[0]);
            Map<String, String> env = new HashMap<>(s.env());
            for (String kv : Arrays.asList(words).subList(1, words.length)) {
                env.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
            findings = HostFixturesTest.judge(s.withEnv(env)).findings();
        }
        return findings.stream().map(Finding::ruleId).distinct().toList();
    }

    @Test
    void everyScenarioReportsItsIds() throws IOException {
        boolean update = dev.ncclbench.Goldens.updating();
        List<String> lines = Files.readAllLines(SCENARIOS);
        List<String> rewritten = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("#") || line.isBlank()) {
                rewritten.add(line);
                continue;
            }
            String scenario = line.substring(0, line.indexOf("->")).strip();
            String actual = (scenario + " -> " + String.join(" ", ids(scenario))).strip();
            rewritten.add(actual);
            if (!actual.equals(line.strip())) {
                wrong.add("want " + line + "\n got " + actual);
            }
        }
        if (update) {
            Files.write(SCENARIOS, rewritten);
        }
        assertEquals(List.of(), wrong, "scenarios whose ids changed");
    }

    @Test
    void everyDoctorAndCompareRuleFiresInSomeScenario() throws IOException {
        Set<String> fired = new TreeSet<>();
        for (String line : Files.readAllLines(SCENARIOS)) {
            if (!line.startsWith("#") && line.contains("->")) {
                fired.addAll(Arrays.asList(line.substring(line.indexOf("->") + 2).strip().split(" ")));
            }
        }
        for (RuleBook<?> book : List.of(DoctorRules.book(), CompareRules.book())) {
            List<String> missing = book.rules().stream().map(Rule::id).filter(id -> !fired.contains(id)).toList();
            assertEquals(List.of(), missing, book.name() + " rules without a scenario that fires them");
        }
    }
}
