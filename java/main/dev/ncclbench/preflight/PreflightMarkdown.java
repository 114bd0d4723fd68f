package dev.ncclbench.preflight;

import dev.ncclbench.finding.Finding;
import dev.ncclbench.gate.GateMarkdown;

import java.util.Locale;

/** A Markdown summary for a CI job: the verdict line, doctor's findings, then the gate's summary when it ran. */
public final class PreflightMarkdown {
    private PreflightMarkdown() {
    }

    public static String render(PreflightReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append("## ncclbench preflight: ").append(r.verdict().word()).append("\n\n");
        sb.append(escape(r.verdict().line())).append("\n\n");
        if (r.doctor() != null) {
            sb.append("### Doctor").append(r.host() == null ? "" : " on `" + r.host() + "`").append("\n\n");
            if (r.doctor().isEmpty()) {
                sb.append("No findings.\n\n");
            }
            for (Finding f : r.doctor()) {
                sb.append("- **").append(f.ruleId()).append("** (").append(f.severity().name().toLowerCase(Locale.ROOT))
                        .append("): ").append(escape(f.title())).append('\n');
            }
            if (!r.doctor().isEmpty()) {
                sb.append('\n');
            }
        }
        if (r.sweep() == null) {
            sb.append("The sweep did not run.\n");
        } else if (r.gate() != null) {
            sb.append(GateMarkdown.render(r.gate()));
        }
        return sb.toString();
    }

    private static String escape(String s) {
        return s.replace("|", "\\|");
    }
}
