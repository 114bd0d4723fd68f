package dev.ncclbench.fleet;

import dev.ncclbench.output.Html;

import java.util.List;
import java.util.Locale;

/**
 * A self-contained HTML report: the verdicts, the pair matrix as an inline SVG heat map (each cell the pair's
 * busbw over the best pairs of the run; grey where a pair never ran), the rounds, and what was left undecided.
 * No scripts, no external files: it opens from a ticket attachment.
 */
final class FleetHtml {
    private static final int CELL = 28;
    private static final int LABEL = 140;
    /** Above this many nodes a matrix is unreadable: the worst links and the non-good links replace it. */
    static final int HEAT_MAP_MAX = 64;
    static final int WORST_LINKS = 50;

    private FleetHtml() {
    }

    static String render(FleetDocument doc) {
        DrainPolicy trusting = DrainPolicy.trusting();
        return render(doc, trusting, trusting.decide(doc));
    }

    /** With the drain list as written: one not written is shown as withheld, and each node not named with why. */
    static String render(FleetDocument doc, DrainPolicy drainPolicy, DrainPolicy.Drain drain) {
        Verdicts v = doc.verdicts();
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ncclbench fleet</title>\n<style>")
                .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}.slow,.unreachable,.bad{background:#f8d0d0}")
                .append(".undecided,.not-judged{background:#fff3c4}.good{background:#e4f4e4}.explained{background:#f0e0d0}")
                .append("</style></head><body>\n");
        b.append("<h1>ncclbench fleet: ").append(!doc.anyBad() ? "nothing bad found"
                : v.anyBad() ? "bad nodes or links found" : "bad rails found").append("</h1>\n");
        b.append("<p>").append(doc.hosts().size()).append(" nodes, ").append(Html.escape(doc.backend())).append(" backend, survey ")
                .append(doc.search().survey().label).append(", ").append(doc.result().rounds()).append(" rounds (")
                .append(Html.escape(doc.result().stopReason())).append("); a result is slow below ")
                .append(Judge.pct(doc.search().margin())).append(" of the best results of the run")
                .append(doc.floorSource() == null ? "" : " or below " + Html.escape(doc.floorSource())).append(".</p>\n");
        List<String> listed = drain.written() ? drain.names() : List.copyOf(drain.withheld().keySet());
        b.append(drain.written() ? "<h2>Drain</h2>\n" : "<h2>Drain: withheld</h2>\n<p>"
                + Html.escape(drainPolicy.headerLine()) + "</p>\n").append("<pre>")
                .append(listed.isEmpty() ? "(none)" : Html.escape(String.join("\n", listed))).append("</pre>\n");
        if (drain.written() && !drain.withheld().isEmpty()) {
            b.append("<p>Not drained: ").append(Html.escape(drain.because())).append("</p>\n");
        }
        b.append("<h2>Nodes</h2>\n<table><tr><th>rank</th><th>host</th><th>verdict</th><th>why</th></tr>\n");
        for (NodeVerdict n : v.nodes()) {
            b.append("<tr class=\"").append(n.status().label).append("\"><td>").append(n.rank()).append("</td><td>")
                    .append(Html.escape(doc.hosts().get(n.rank()))).append("</td><td>").append(n.status().label).append("</td><td>")
                    .append(Html.escape(n.reason())).append("</td></tr>\n");
        }
        boolean small = doc.hosts().size() <= HEAT_MAP_MAX;
        b.append("</table>\n");
        if (doc.rails() != null) {
            b.append(RailHtml.render(doc.hosts(), doc.rails()));
        }
        if (small) {
            b.append("<h2>Pair matrix</h2>\n").append(heatMap(doc));
        }
        List<LinkVerdict> shown = small ? v.links() : worst(v.links());
        b.append("<h2>Links</h2>\n<p>").append(v.linksMeasured()).append(" of ").append(doc.linksTotal())
                .append(" links measured").append(small ? "" : "; above " + HEAT_MAP_MAX + " nodes only links not judged"
                        + " good and the " + WORST_LINKS + " lowest of the rest, lowest first")
                .append(".</p>\n<table><tr><th>link</th><th>verdict</th><th>busbw GB/s</th><th>why</th></tr>\n");
        for (LinkVerdict l : shown) {
            String cls = l.status().name().toLowerCase(Locale.ROOT).replace('_', '-');
            b.append("<tr class=\"").append(cls).append("\"><td>").append(Html.escape(doc.hosts().get(l.a()) + " - " + doc.hosts().get(l.b())))
                    .append("</td><td>").append(Html.escape(l.status().label)).append("</td><td>")
                    .append(Double.isFinite(l.busbw()) ? String.format(Locale.ROOT, "%.4g", l.busbw()) : "")
                    .append("</td><td>").append(Html.escape(l.reason())).append("</td></tr>\n");
        }
        b.append("</table>\n");
        if (!v.undecided().isEmpty()) {
            b.append("<h2>Could not decide</h2>\n<ul>\n");
            v.undecided().forEach(u -> b.append("<li>").append(Html.escape(u)).append("</li>\n"));
            b.append("</ul>\n");
        }
        b.append(small ? rounds(doc) : roundSummary(doc)).append("</body></html>\n");
        return b.toString();
    }

    private static String heatMap(FleetDocument doc) {
        List<String> hosts = doc.hosts();
        int n = hosts.size();
        Double[][] ratio = doc.matrix(true);
        Double[][] busbw = doc.matrix(false);
        int side = LABEL + n * CELL + 10;
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(side).append("\" height=\"").append(side)
                .append("\" role=\"img\" aria-label=\"pair matrix\" font-size=\"11\">\n");
        for (int i = 0; i < n; i++) {
            int y = LABEL + i * CELL + CELL / 2 + 4;
            s.append("<text x=\"").append(LABEL - 4).append("\" y=\"").append(y).append("\" text-anchor=\"end\">")
                    .append(Html.escape(hosts.get(i))).append("</text>\n");
            int x = LABEL + i * CELL + CELL / 2;
            s.append("<text transform=\"translate(").append(x + 4).append(',').append(LABEL - 4)
                    .append(") rotate(-60)\">").append(Html.escape(hosts.get(i))).append("</text>\n");
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                Double r = ratio[i][j];
                String fill = i == j ? "#ffffff" : r == null ? "#dddddd" : color(r);
                s.append("<rect x=\"").append(LABEL + j * CELL).append("\" y=\"").append(LABEL + i * CELL)
                        .append("\" width=\"").append(CELL - 1).append("\" height=\"").append(CELL - 1).append("\" fill=\"")
                        .append(fill).append("\"><title>").append(Html.escape(hosts.get(i) + " - " + hosts.get(j))).append(": ")
                        .append(i == j ? "itself" : r == null ? "not measured"
                                : String.format(Locale.ROOT, "%.4g GB/s, %s of the best", busbw[i][j], Judge.pct(r)))
                        .append("</title></rect>\n");
            }
        }
        s.append("</svg>\n<p>Colour: the pair's busbw over the best pairs of the run (green 100%, red 0%); grey: not measured.</p>\n");
        return s.toString();
    }

    /** Every link not judged good, then the lowest of the good ones, lowest ratio first. */
    static List<LinkVerdict> worst(List<LinkVerdict> links) {
        java.util.Comparator<LinkVerdict> byRatio = java.util.Comparator.comparingDouble(
                l -> Double.isFinite(l.ratio()) ? l.ratio() : -1);
        List<LinkVerdict> out = new java.util.ArrayList<>(links.stream()
                .filter(l -> l.status() != LinkVerdict.Status.GOOD).sorted(byRatio).toList());
        links.stream().filter(l -> l.status() == LinkVerdict.Status.GOOD).sorted(byRatio).limit(WORST_LINKS).forEach(out::add);
        return out;
    }

    /** Above the heat map's limit: per round, how many groups, how many slow, the lowest result. */
    private static String roundSummary(FleetDocument doc) {
        Evidence e = doc.result().evidence();
        StringBuilder b = new StringBuilder("<h2>Rounds</h2>\n<table><tr><th>round</th><th>groups</th><th>at once</th>"
                + "<th>slow</th><th>not judged</th></tr>\n");
        for (RoundPlan p : doc.result().plans()) {
            List<GroupMeasurement> ms = e.measurements().stream().filter(m -> m.round() == p.round()).toList();
            b.append("<tr><td>").append(p.round()).append("</td><td>").append(ms.size()).append("</td><td>")
                    .append(ms.stream().mapToInt(GroupMeasurement::load).max().orElse(0)).append("</td><td>")
                    .append(ms.stream().filter(m -> e.usable(m) && e.slow(m)).count()).append("</td><td>")
                    .append(ms.stream().filter(m -> !e.usable(m)).count()).append("</td></tr>\n");
        }
        return b.append("</table>\n").toString();
    }

    /** Red (0) to green (1) through yellow. */
    static String color(double ratio) {
        double r = Math.max(0, Math.min(1, ratio));
        int red = r < 0.5 ? 220 : (int) Math.round(220 - (r - 0.5) * 2 * 170);
        int green = r < 0.5 ? (int) Math.round(60 + r * 2 * 150) : 210;
        return String.format(Locale.ROOT, "#%02x%02x%02x", red, green, 60);
    }

    private static String rounds(FleetDocument doc) {
        Evidence e = doc.result().evidence();
        StringBuilder b = new StringBuilder("<h2>Rounds</h2>\n<table><tr><th>round</th><th>purpose</th><th>group</th>"
                + "<th>at once</th><th>busbw GB/s</th><th>of best</th><th>result</th></tr>\n");
        for (GroupMeasurement m : e.measurements()) {
            boolean usable = e.usable(m);
            String result = !usable ? "not judged: " + m.error() : m.failed() ? "failed: " + m.error() : e.slow(m) ? "slow" : "fine";
            b.append("<tr class=\"").append(!usable ? "not-judged" : e.slow(m) ? "slow" : "good").append("\"><td>")
                    .append(m.round()).append("</td><td>").append(m.group().purpose().label).append("</td><td>")
                    .append(Html.escape(String.join(", ", m.group().members().stream().map(doc.hosts()::get).toList())))
                    .append("</td><td>").append(m.load()).append("</td><td>")
                    .append(m.failed() ? "" : String.format(Locale.ROOT, "%.4g", m.busbw())).append("</td><td>")
                    .append(usable ? Judge.pct(e.ratio(m)) : "").append("</td><td>").append(Html.escape(result)).append("</td></tr>\n");
        }
        return b.append("</table>\n").toString();
    }
}
