package dev.ncclbench.fleet;

import dev.ncclbench.output.Html;

import java.util.List;
import java.util.Locale;

/**
 * The report's rails: a nodes x rails heat map (each cell the rail's best result over the best rail of the run; a rail
 * down in dark red, one the node does not have blank, one not judged grey, the verdict written in every cell that is
 * not ok) and a table of every rail that is not ok.
 */
final class RailHtml {
    private static final int CELL_W = 64;
    private static final int CELL_H = 24;
    private static final int LABEL = 140;

    private RailHtml() {
    }

    static String render(List<String> hosts, RailResult rails) {
        int width = rails.width();
        double best = rails.verdicts().stream().mapToDouble(RailVerdict::busbw).filter(Double::isFinite).max().orElse(Double.NaN);
        StringBuilder s = new StringBuilder("<h2>Rails</h2>\n<p>").append(Html.escape(rails.judgement())).append(".</p>\n");
        int w = LABEL + width * CELL_W + 10;
        int h = 24 + hosts.size() * CELL_H + 4;
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(w).append("\" height=\"").append(h)
                .append("\" role=\"img\" aria-label=\"nodes x rails\" font-size=\"11\">\n");
        for (int r = 0; r < width; r++) {
            s.append("<text x=\"").append(LABEL + r * CELL_W + CELL_W / 2).append("\" y=\"16\" text-anchor=\"middle\">rail ")
                    .append(r).append("</text>\n");
        }
        for (int n = 0; n < hosts.size(); n++) {
            int y = 24 + n * CELL_H;
            s.append("<text x=\"").append(LABEL - 4).append("\" y=\"").append(y + CELL_H / 2 + 4).append("\" text-anchor=\"end\">")
                    .append(Html.escape(hosts.get(n))).append("</text>\n");
            for (int r = 0; r < width; r++) {
                RailVerdict v = rails.of(n, r);
                if (v == null) {
                    continue; // the node has no such rail
                }
                String fill = switch (v.status()) {
                    case DOWN -> "#8b1a1a";
                    case NOT_JUDGED -> "#dddddd";
                    default -> Double.isFinite(v.busbw()) && best > 0 ? FleetHtml.color(v.busbw() / best) : "#dddddd";
                };
                int x = LABEL + r * CELL_W;
                s.append("<g class=\"rail ").append(v.status().name().toLowerCase(Locale.ROOT).replace('_', '-'))
                        .append("\"><rect x=\"").append(x).append("\" y=\"").append(y).append("\" width=\"").append(CELL_W - 1)
                        .append("\" height=\"").append(CELL_H - 1).append("\" fill=\"").append(fill).append("\"><title>")
                        .append(Html.escape(hosts.get(n) + " " + v.reason())).append("</title></rect>");
                if (v.status() != RailVerdict.Status.OK) {
                    s.append("<text x=\"").append(x + CELL_W / 2).append("\" y=\"").append(y + CELL_H / 2 + 4)
                            .append("\" text-anchor=\"middle\" fill=\"").append(v.status() == RailVerdict.Status.DOWN ? "#fff" : "#000")
                            .append("\">").append(v.status().label).append("</text>");
                }
                s.append("</g>\n");
            }
        }
        s.append("</svg>\n<p>Colour: the rail's best result over the best rail of the run (green 100%, red 0%); dark red:"
                + " down; grey: not judged; blank: the node has no such rail.</p>\n");
        List<RailVerdict> notOk = rails.verdicts().stream().filter(v -> v.status() != RailVerdict.Status.OK).toList();
        s.append("<table><tr><th>host</th><th>rail</th><th>NIC</th><th>verdict</th><th>why</th></tr>\n");
        for (RailVerdict v : notOk) {
            String cls = v.bad() ? "bad" : v.status() == RailVerdict.Status.UNDECIDED ? "undecided" : "not-judged";
            s.append("<tr class=\"").append(cls).append("\"><td>").append(Html.escape(hosts.get(v.rank()))).append("</td><td>")
                    .append(v.rail()).append("</td><td>").append(Html.escape(v.nic())).append("</td><td>").append(v.status().label)
                    .append("</td><td>").append(Html.escape(v.reason())).append("</td></tr>\n");
        }
        if (notOk.isEmpty()) {
            s.append("<tr><td colspan=\"5\">every rail ok</td></tr>\n");
        }
        return s.append("</table>\n").toString();
    }
}
