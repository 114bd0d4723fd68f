package dev.ncclbench.cli;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ncclbench.finding.Rule;
import dev.ncclbench.finding.RuleBook;
import dev.ncclbench.finding.Severity;
import dev.ncclbench.output.Json;
import dev.ncclbench.rules.RuleBooks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** `ncclbench rules`: every rule of every book (id, severity, one line), the ids that --ignore takes. */
@Command(name = "rules", mixinStandardHelpOptions = true,
        description = "List every rule of explain (and of every other command that judges evidence): its id, the"
                + " worst severity it reports, and what it looks for. The ids are what --ignore takes.")
public final class RulesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** --json: {kind, schema_version, rules: [{book, id, severity, degrades_path, summary}]}. */
    @Mixin
    JsonOutput json = new JsonOutput();

    /** `rules --json -`. 1: the first version with an envelope; before it, a bare array with degradesPath and "ERROR". */
    @JsonPropertyOrder({"kind", "schema_version", "rules"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Document(String kind, int schemaVersion, List<Line> rules) {
        static final String KIND = "ncclbench.rules";
        static final int SCHEMA_VERSION = 1;
    }

    /** One rule, with the book it belongs to. */
    @JsonPropertyOrder({"book", "id", "severity", "degrades_path", "summary"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Line(String book, String id, Severity severity, boolean degradesPath, String summary) {
    }

    @Override
    public Integer call() throws Exception {
        json.check(Map.of(), Map.of());
        PrintWriter out = spec.commandLine().getOut();
        json.write(() -> {
            List<Line> rows = new ArrayList<>();
            for (RuleBook<?> book : RuleBooks.all()) {
                for (Rule<?> r : book.rules()) {
                    rows.add(new Line(book.name(), r.id(), r.severity(), r.degradesPath(), r.summary()));
                }
            }
            return Json.prettyText(new Document(Document.KIND, Document.SCHEMA_VERSION, rows));
        }, out);
        if (!json.onStdout()) {
            int width = RuleBooks.all().stream().flatMap(b -> b.rules().stream()).mapToInt(r -> r.id().length()).max()
                    .orElse(10);
            for (RuleBook<?> book : RuleBooks.all()) {
                out.printf(Locale.ROOT, "%s (%d rules, in the order they run)%n", book.name(), book.rules().size());
                for (Rule<?> r : book.rules()) {
                    out.printf(Locale.ROOT, "  %-" + width + "s  %-7s  %s%s%n", r.id(), r.severity(), r.summary(),
                            r.degradesPath() ? " [degrades the path]" : "");
                }
                out.println();
            }
            out.printf(Locale.ROOT, "Every book: %s WARNING when a rule crashes; the others still run.%n",
                    RuleBook.CRASHED);
        }
        out.flush();
        return 0;
    }
}
