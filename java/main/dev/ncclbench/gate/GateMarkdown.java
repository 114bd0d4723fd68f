package dev.ncclbench.gate;

import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.spec.Sizes;

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
        sb.append("Run `").append(r.runFile()).append("`");
        if (r.baselineName() != null) {
            sb.append(" against baseline `").append(r.baselineName()).append("` (").append(r.baselineRuns())
                    .append(r.baselineRuns() == 1 ? " run" : " runs").append(")");
        }
        sb.append(". ").append(escape(r.options())).append(".\n\n");
        for (String st : GateText.statistics(r)) {
            sb.append("Judged on ").append(escape(st)).append(".\n");
        }
        sb.append("*table* is the run's time as the sweep printed it (nccl-tests' mean over the timed loop).\n\n");
        sb.append("| collective | size | placement | judged on | baseline | run | table | change | noise | p | verdict |\n");
        sb.append("|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (SizeResult s : r.sizes()) {
            Comparison c = s.comparison();
            String verdict = s.status().fails() ? "**" + s.status().label + "**" : s.status().label;
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    s.key().collective(), Sizes.human(s.key().size()), s.key().placement(), s.metric(),
                    GateText.value(s, s.baselineValue()), GateText.value(s, s.runValue()), GateText.us(s.runTableUs()),
                    Double.isFinite(s.change()) ? GateText.signedPct(s.change()) : "-",
                    c == null ? "-" : c.tableOnly() && c.baselineGroups() < 2 ? "none" : "±" + GateOptions.pct(c.noise()),
                    c == null || c.tableOnly() ? "-" : GateText.p(c.pSlower()),
                    verdict + (c != null && c.tableOnly() ? " (tolerance only)" : "")));
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
