package dev.ncclbench.report;

import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.gate.GateRow;
import dev.ncclbench.gate.GateText;
import dev.ncclbench.output.Html;
import dev.ncclbench.spec.Sizes;

import java.util.List;
import java.util.Locale;

/**
 * One self-contained HTML file: the plots as inline SVG, the verdict, the per-size table, the findings and what
 * changed. No script, no stylesheet or font from the network: it opens the same offline, in a CI artifact
 * viewer, or attached to a ticket.
 */
public final class HtmlReport {
    private HtmlReport() {
    }

    public static String render(ReportData d) {
        StringBuilder h = new StringBuilder(64 * 1024);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
                .append(Html.escape(d.title())).append("</title>\n<style>\n")
                .append("body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1000px}\n")
                .append("h1{font-size:22px}h2{font-size:17px;margin-top:28px}\n")
                .append(".verdict{font-size:16px;padding:10px 14px;border-radius:4px;font-weight:bold}\n")
                .append(".PASS{background:#e8f5e9;color:#1b5e20}.REGRESSION,.DEGRADED{background:#ffebee;color:#b71c1c}\n")
                .append(".NO_BASELINE,.NOTHING_TO_COMPARE,.INCOMPLETE{background:#fff8e1;color:#8d6e00}\n")
                .append(".legend{font-size:12px;color:#444}\n")
                .append("table.facts{margin-bottom:16px}table.facts th{background:#f5f5f5;font-weight:normal}\n")
                .append("table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}\n")
                .append("td.l,th.l{text-align:left}tr.fail td{background:#ffebee;font-weight:bold}\n")
                .append(".plot svg{width:100%;height:auto;border:1px solid #eee}\ncode{font-size:12px}\n")
                .append("</style>\n</head>\n<body>\n");
        h.append("<h1>").append(Html.escape(d.title())).append("</h1>\n");
        facts(h, d.facts());
        GateReport g = d.gate();
        if (g != null) {
            h.append("<p class=\"verdict ").append(g.verdict().name()).append("\" id=\"verdict\">")
                    .append(Html.escape(g.verdictLine())).append("</p>\n");
        }
        if (d.oneRank()) {
            h.append("<p id=\"one-rank\">One rank: nothing crosses between GPUs, so busbw is 0 by nccl-tests' definition;"
                    + " the plot shows algbw (size / time) against ").append(d.copyLimit().map(l -> Html.escape(
                    String.format(Locale.ROOT, "the GPU's copy limit, %.0f GB/s (%s)", l.gbps(), l.source())))
                    .orElse("no copy limit: the run recorded no NVML figures and the GPU model is not listed"))
                    .append(". In place on one rank no data moves: those rows time the host's launch and wait.</p>\n");
        }
        for (String svg : ReportImages.svgs(d)) {
            h.append("<div class=\"plot\">\n").append(inline(svg)).append("\n</div>\n");
        }
        if (g != null) {
            table(h, g);
            changes(h, g);
        } else {
            curves(h, d);
        }
        findings(h, d.findings());
        Fingerprint fp = d.fingerprint();
        if (fp != null) {
            h.append("<h2>Fingerprint</h2>\n<p><code>").append(Html.escape(fp.id())).append("</code> ")
                    .append(Html.escape(fp.summary())).append("</p>\n");
            if (g != null) {
                h.append("<p>").append(Html.escape(g.options())).append("</p>\n");
            }
        }
        h.append("<p><small>ncclbench report; busbw at the median per-call time; GB/s = 1e9 bytes/s</small></p>\n");
        h.append("</body>\n</html>\n");
        return h.toString();
    }

    /** The gate's table: which run it covers and against what, what each column is, one row per size and placement. */
    private static void table(StringBuilder h, GateReport g) {
        h.append("<h2>Per size: ").append(Html.escape(g.runFile())).append(' ')
                .append(Html.escape(GateText.against(g))).append("</h2>\n");
        for (String st : GateText.statistics(g)) {
            h.append("<p class=\"statistic\">Judged on ").append(Html.escape(st)).append(".</p>\n");
        }
        h.append("<ul class=\"legend\">\n");
        GateRow.LEGEND.forEach(l -> h.append("<li>").append(Html.escape(l)).append("</li>\n"));
        h.append("</ul>\n<table id=\"sizes\">\n<tr>");
        List<String> titles = GateRow.TITLES;
        for (int i = 0; i < titles.size(); i++) {
            h.append(LEFT.contains(i) ? "<th class=\"l\">" : "<th>").append(Html.escape(titles.get(i))).append("</th>");
        }
        h.append("</tr>\n");
        for (GateRow row : GateRow.of(g)) {
            h.append(row.fails() ? "<tr class=\"fail\">" : "<tr>");
            List<String> cells = row.cells();
            for (int i = 0; i < cells.size(); i++) {
                h.append(LEFT.contains(i) ? "<td class=\"l\">" : "<td>").append(Html.escape(cells.get(i)))
                        .append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n");
    }

    /** The columns of {@link GateRow#TITLES} that hold words (left-aligned); the others hold figures. */
    private static final java.util.Set<Integer> LEFT = java.util.Set.of(0, 2, 3, 11);

    /** What the judged run was, first on the page: when, where, on what, with which command. */
    private static void facts(StringBuilder h, List<RunFacts.Fact> facts) {
        h.append("<table id=\"run\" class=\"facts\">\n");
        for (RunFacts.Fact f : facts) {
            h.append("<tr><th class=\"l\">").append(Html.escape(f.name())).append("</th><td class=\"l\">")
                    .append(Html.escape(f.value())).append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private static void changes(StringBuilder h, GateReport g) {
        if (g.baselineName() == null) {
            return;
        }
        h.append("<h2>What changed since baseline ").append(Html.escape(g.baselineName())).append("</h2>\n");
        if (g.changes().isEmpty()) {
            h.append("<p>Nothing in the fingerprint: the same versions, settings and interfaces.</p>\n");
            return;
        }
        h.append("<ul id=\"changes\">\n");
        for (Fingerprint.Change c : g.changes()) {
            h.append("<li>").append(Html.escape(c.kind())).append(" <code>").append(Html.escape(c.text())).append("</code></li>\n");
        }
        h.append("</ul>\n");
    }

    private static void curves(StringBuilder h, ReportData d) {
        h.append("<h2>Per size</h2>\n<table id=\"sizes\">\n<tr><th class=\"l\">curve</th><th class=\"l\">collective</th>"
                + "<th>size</th><th>median time (us)</th><th>algbw (GB/s)</th><th>busbw (GB/s)</th></tr>\n");
        for (ReportData.Curve c : d.curves()) {
            for (ReportData.Point p : c.points()) {
                h.append("<tr><td class=\"l\">").append(Html.escape(c.label())).append("</td><td class=\"l\">")
                        .append(Html.escape(c.collective())).append("</td><td>").append(Html.escape(Sizes.human(p.size())))
                        .append("</td><td>").append(String.format(Locale.ROOT, "%.1f", p.medianUs())).append("</td><td>")
                        .append(Double.isFinite(p.algbw()) ? String.format(Locale.ROOT, "%.4g", p.algbw()) : "-")
                        .append("</td><td>")
                        .append(Double.isFinite(p.busbw()) ? String.format(Locale.ROOT, "%.4f", p.busbw()) : "-")
                        .append("</td></tr>\n");
            }
        }
        h.append("</table>\n");
    }

    private static void findings(StringBuilder h, List<Finding> findings) {
        if (findings.isEmpty()) {
            return;
        }
        h.append("<h2>Findings</h2>\n<ul id=\"findings\">\n");
        for (Finding f : findings) {
            h.append("<li><b>").append(Html.escape(f.ruleId())).append("</b> (")
                    .append(f.severity().name().toLowerCase(Locale.ROOT)).append("): ").append(Html.escape(f.title()))
                    .append("<br><small>").append(Html.escape(f.detail())).append("</small></li>\n");
        }
        h.append("</ul>\n");
    }

    /** The SVG element alone: the XML declaration and DOCTYPE do not belong inside HTML. */
    static String inline(String svg) {
        int i = svg.indexOf("<svg");
        return i >= 0 ? svg.substring(i) : svg;
    }
}
