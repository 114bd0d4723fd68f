package dev.ncclbench.cli;

import dev.ncclbench.finding.Rule;
import dev.ncclbench.finding.RuleBook;
import dev.ncclbench.output.Json;
import dev.ncclbench.rules.RuleBooks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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

    @Option(names = "--json", description = "Print as JSON: {kind, schema_version, rules: [{book, id, severity, degrades_path, summary}]}")
    boolean json;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (RuleBook<?> book : RuleBooks.all()) {
                for (Rule<?> r : book.rules()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("book", book.name());
                    m.put("id", r.id());
                    m.put("severity", r.severity());
                    m.put("degrades_path", r.degradesPath());
                    m.put("summary", r.summary());
                    rows.add(m);
                }
            }
            // 1: the first version with an envelope; before it, a bare array with degradesPath and "ERROR"
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("kind", "ncclbench.rules");
            doc.put("schema_version", 1);
            doc.put("rules", rows);
            out.println(Json.pretty().writeValueAsString(doc));
        } else {
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
