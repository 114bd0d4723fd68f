package dev.ncclbench.gate;

import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.finding.Finding;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A Markdown summary that fits a CI job summary: the verdict, the table, what changed, the curve check. */
public final class GateMarkdown {
    private GateMarkdown() {
    }

    public static String render(GateReport r) {
        StringBuilder sb = new StringBuilder();
        String icon = r.verdict().name();
        sb.append("## ncclbench gate: ").append(icon).append("\n\n");
        sb.append(escape(r.verdictLine())).append("\n\n");
        sb.append("Run `").append(r.runFile()).append("` ").append(escape(GateText.against(r))).append(". ")
                .append(escape(r.options())).append(".\n\n");
        for (String st : GateText.statistics(r)) {
            sb.append("Judged on ").append(escape(st)).append(".\n");
        }
        sb.append('\n');
        GateRow.LEGEND.forEach(l -> sb.append("- ").append(escape(l)).append('\n'));
        sb.append("\n| ").append(String.join(" | ", GateRow.TITLES)).append(" |\n");
        sb.append("|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (GateRow row : GateRow.of(r)) {
            List<String> cells = new ArrayList<>(row.cells());
            if (row.fails()) {
                cells.set(cells.size() - 1, "**" + row.verdict() + "**");
            }
            sb.append("| ").append(String.join(" | ", cells.stream().map(GateMarkdown::escape).toList()))
                    .append(" |\n");
        }
        if (!r.changes().isEmpty()) {
            sb.append("\n### What changed since the baseline\n\n");
            for (Fingerprint.Change c : r.changes()) {
                sb.append("- ").append(c.kind()).append(" `").append(c.what()).append("`: ")
                        .append(c.before() == null ? "(unset)" : "`" + c.before() + "`").append(" → ")
                        .append(c.after() == null ? "(unset)" : "`" + c.after() + "`").append('\n');
            }
        }
        if (!r.ncclChoiceLines().isEmpty()) {
            sb.append("\n### What NCCL decided differently from the baseline\n\n");
            r.ncclChoiceLines().forEach(l -> sb.append("- ").append(escape(l)).append('\n'));
        }
        if (!r.curve().isEmpty()) {
            sb.append("\n### Curve check\n\n");
            for (Finding f : r.curve()) {
                sb.append("- **").append(f.ruleId()).append("** (").append(f.severity().name().toLowerCase(Locale.ROOT))
                        .append("): ").append(escape(f.title())).append('\n');
            }
        }
        return sb.toString();
    }

    private static String escape(String s) {
        return s.replace("|", "\\|");
    }
}
