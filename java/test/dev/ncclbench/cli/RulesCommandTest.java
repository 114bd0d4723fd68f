package dev.ncclbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ncclbench.finding.Rule;
import dev.ncclbench.finding.RuleBook;
import dev.ncclbench.rules.RuleBooks;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `rules` lists every book of RuleBooks, env's ENV-* included, and env takes their ids with --ignore. */
class RulesCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(args, new PrintWriter(out), new PrintWriter(err));
    }

    @Test
    void everyBookAndEveryIdIsListed() throws Exception {
        assertEquals(List.of("explain", "doctor", "doctor --compare", "curve", "env"),
                RuleBooks.all().stream().map(RuleBook::name).toList());
        assertEquals(0, run("rules", "--json", "-"));
        List<String> listed = new ArrayList<>();
        for (JsonNode n : new ObjectMapper().readTree(out.toString()).get("rules")) {
            listed.add(n.get("book").asText() + " " + n.get("id").asText());
        }
        List<String> all = new ArrayList<>();
        for (RuleBook<?> b : RuleBooks.all()) {
            for (Rule<?> r : b.rules()) {
                all.add(b.name() + " " + r.id());
            }
        }
        assertEquals(all, listed);
        assertTrue(listed.contains("env ENV-NCCL-BOOTSTRAP"), listed.toString());
        assertTrue(RuleBooks.knows("ENV-NO-GPU") && RuleBooks.knows("CURVE-DIP") && !RuleBooks.knows("NOPE"));
    }

    @Test
    void envTakesRuleIdsWithTheOneIgnore() {
        assertEquals(2, run("env", "--ignore", "NOPE"));
        assertTrue(err.toString().contains("--ignore NOPE: no rule has that id"), err.toString());
        // whatever this machine lacks, ignoring every env rule leaves nothing missing
        List<String> args = new ArrayList<>(List.of("env"));
        dev.ncclbench.env.EnvRules.book().rules().forEach(r -> args.addAll(List.of("--ignore", r.id())));
        assertEquals(0, run(args.toArray(String[]::new)));
        assertTrue(out.toString().contains("Missing: nothing"), out.toString());
        assertNotEquals(2, run("env", "--ignore", "ENV-NO-GPU"));
    }
}
