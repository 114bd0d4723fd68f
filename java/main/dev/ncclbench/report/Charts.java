package dev.ncclbench.report;

import dev.ncclbench.gate.GateRow;
import dev.ncclbench.gate.SizeResult;
import dev.ncclbench.spec.Sizes;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The two plots: busbw against size on a log2 axis (runs and baseline overlaid, line-rate and socket-floor
 * lines, failed sizes marked), and median latency against size for the small sizes. XChart draws them; the x
 * values are log2(bytes) so that every tick is a power of two.
 */
final class Charts {
    static final int WIDTH = 960;
    static final int HEIGHT = 540;
    private static final Color FAIL = new Color(0xC6, 0x28, 0x28);
    private static final Color LINE_RATE = new Color(0x2E, 0x7D, 0x32);
    private static final Color FLOOR = new Color(0xEF, 0x6C, 0x00);

    private Charts() {
    }

    /**
     * One rank: algbw against size with the GPU's copy limit drawn, since busbw is 0 by definition (nothing crosses
     * between GPUs) and a chart of zeros tells nobody anything.
     */
    static XYChart algbw(ReportData d) {
        XYChart c = chart(d.title() + ": algbw (one rank: busbw is 0)", "algbw (GB/s)");
        double[] xr = xRange(d, Long.MAX_VALUE);
        for (ReportData.Curve curve : d.curves()) {
            List<ReportData.Point> pts = curve.points().stream().filter(p -> Double.isFinite(p.algbw())).toList();
            if (!pts.isEmpty()) {
                style(c.addSeries(name(d, curve), x(pts), pts.stream().mapToDouble(ReportData.Point::algbw).toArray()),
                        curve);
            }
        }
        d.copyLimit().ifPresent(l -> hline(c, String.format(Locale.ROOT, "GPU copy limit %.0f GB/s", l.gbps()), xr,
                l.gbps(), LINE_RATE, SeriesLines.DASH_DASH));
        return c;
    }

    /** One rank: the median time of every size (not only the small ones), on a log scale from 1 us to seconds. */
    static XYChart time(ReportData d) {
        XYChart c = chart(d.title() + ": time per call", "median time per call (us, log)");
        c.getStyler().setYAxisLogarithmic(true);
        c.getStyler().setYAxisMin(null);
        for (ReportData.Curve curve : d.curves()) {
            List<ReportData.Point> pts = curve.points().stream().filter(p -> p.medianUs() > 0).toList();
            if (!pts.isEmpty()) {
                style(c.addSeries(name(d, curve), x(pts), pts.stream().mapToDouble(ReportData.Point::medianUs).toArray()),
                        curve);
            }
        }
        marks(c, d, true);
        return c;
    }

    static XYChart busbw(ReportData d) {
        XYChart c = chart(d.title() + ": busbw", "busbw (GB/s)");
        double[] xr = xRange(d, Long.MAX_VALUE);
        for (ReportData.Curve curve : d.curves()) {
            List<ReportData.Point> pts = curve.points().stream().filter(p -> Double.isFinite(p.busbw())).toList();
            if (pts.isEmpty()) {
                continue;
            }
            XYSeries s = c.addSeries(name(d, curve), x(pts), pts.stream().mapToDouble(ReportData.Point::busbw).toArray());
            style(s, curve);
        }
        d.fabric().ifPresent(f -> {
            hline(c, String.format(Locale.ROOT, "%s line rate %.3g GB/s", f.id(), f.lineGBps()), xr, f.lineGBps(),
                    LINE_RATE, SeriesLines.DASH_DASH);
            hline(c, String.format(Locale.ROOT, "%s healthy from %.3g GB/s", f.id(), f.healthyMinGBps()), xr,
                    f.healthyMinGBps(), LINE_RATE, SeriesLines.DOT_DOT);
        });
        d.socketFloor().ifPresent(v -> hline(c, String.format(Locale.ROOT, "socket floor %.3g GB/s", v), xr, v, FLOOR,
                SeriesLines.DASH_DOT));
        marks(c, d, false);
        return c;
    }

    static XYChart latency(ReportData d) {
        XYChart c = chart(d.title() + ": latency under " + Sizes.human(d.latencyBelow()), "median time per call (us)");
        boolean any = false;
        for (ReportData.Curve curve : d.curves()) {
            List<ReportData.Point> pts = curve.points().stream()
                    .filter(p -> p.size() < d.latencyBelow() && Double.isFinite(p.medianUs())).toList();
            if (pts.isEmpty()) {
                continue;
            }
            any = true;
            style(c.addSeries(name(d, curve), x(pts), pts.stream().mapToDouble(ReportData.Point::medianUs).toArray()),
                    curve);
        }
        marks(c, d, true);
        return any ? c : null;
    }

    static XYChart chart(String title, String yTitle) {
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle("size (bytes, log2)")
                .yAxisTitle(yTitle).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        c.getStyler().setChartBackgroundColor(Color.WHITE);
        c.getStyler().setPlotGridLinesVisible(true);
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setXAxisTickMarkSpacingHint(60);
        c.getStyler().setMarkerSize(9);
        c.getStyler().setAnnotationTextFontColor(FAIL);
        c.setCustomXAxisTickLabelsFormatter(v -> Math.abs(v - Math.rint(v)) < 1e-6
                ? Sizes.human(Math.round(Math.pow(2, Math.rint(v)))) : "");
        return c;
    }

    /** The legend's name of a curve: whose it is, its collective when there are several, and its placement. */
    private static String name(ReportData d, ReportData.Curve curve) {
        return (d.manyCollectives() ? curve.label() + " " + curve.collective() : curve.label()) + ", "
                + ReportData.PLOTTED_PLACEMENT;
    }

    private static void style(XYSeries s, ReportData.Curve curve) {
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        if (curve.baseline()) {
            s.setLineColor(Color.DARK_GRAY);
            s.setMarkerColor(Color.DARK_GRAY);
            s.setLineStyle(new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
                    new float[]{8f, 5f}, 0f));
            s.setMarker(SeriesMarkers.DIAMOND);
        } else {
            s.setMarker(SeriesMarkers.CIRCLE);
        }
    }

    private static void hline(XYChart c, String label, double[] xr, double y, Color color, BasicStroke stroke) {
        XYSeries s = c.addSeries(label, new double[]{xr[0], xr[1]}, new double[]{y, y});
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        s.setLineStyle(stroke);
    }

    /**
     * The gate's failed sizes as red crosses on the judged run's curve (out of place, as plotted), each named by one
     * label: "busbw -20.1%", with ", in-place -19.8%" when that placement failed too, or "in-place busbw -19.8%"
     * alone; "path rdma-gdr -> socket" for a worse path. {@link MarkLabels} keeps every label inside the plot.
     */
    static MarkLabels marks(XYChart c, ReportData d, boolean latency) {
        Map<String, List<SizeResult>> bySize = new LinkedHashMap<>();
        for (SizeResult s : d.marked()) {
            if (latency == (s.key().size() < d.latencyBelow())) {
                bySize.computeIfAbsent(s.key().collective() + " " + s.key().size(), k -> new ArrayList<>()).add(s);
            }
        }
        List<MarkLabels.Label> labels = new ArrayList<>();
        for (List<SizeResult> rows : bySize.values()) {
            SizeResult first = rows.get(0);
            double y = d.judgedPoint(first.key().collective(), first.key().size())
                    .map(p -> latency ? p.medianUs() : p.busbw()).orElse(Double.NaN);
            if (!Double.isFinite(y)) {
                continue;
            }
            List<String> parts = new ArrayList<>();
            for (SizeResult s : rows) {
                boolean metricSaid = !parts.isEmpty() && Double.isFinite(s.change());
                String what = s.status() == SizeResult.Status.DEGRADED_PATH
                        ? "path " + s.basePath() + " -> " + s.runPath()
                        : metricSaid ? GateRow.signedPct(s.change()) : s.changeText();
                parts.add(s.key().inPlace() ? "in-place " + what : what);
            }
            labels.add(new MarkLabels.Label(log2(first.key().size()), y,
                    (d.manyCollectives() ? first.key().collective() + " " : "") + String.join(", ", parts)));
        }
        if (labels.isEmpty()) {
            return null;
        }
        XYSeries s = c.addSeries(latency ? "latency regression" : "regression",
                labels.stream().mapToDouble(MarkLabels.Label::x).toArray(),
                labels.stream().mapToDouble(MarkLabels.Label::y).toArray());
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        s.setMarker(SeriesMarkers.CROSS);
        s.setMarkerColor(FAIL);
        MarkLabels named = new MarkLabels(labels);
        c.addAnnotation(named);
        return named;
    }

    private static double[] xRange(ReportData d, long below) {
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        for (ReportData.Curve c : d.curves()) {
            for (ReportData.Point p : c.points()) {
                if (p.size() < below) {
                    lo = Math.min(lo, log2(p.size()));
                    hi = Math.max(hi, log2(p.size()));
                }
            }
        }
        return lo <= hi ? new double[]{lo, hi} : new double[]{0, 1};
    }

    private static double[] x(List<ReportData.Point> pts) {
        return pts.stream().mapToDouble(p -> log2(p.size())).toArray();
    }

    static double log2(long bytes) {
        return Math.log(Math.max(1, bytes)) / Math.log(2);
    }
}
