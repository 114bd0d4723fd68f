package dev.ncclbench.report;

import org.knowm.xchart.internal.chartpart.Annotation;

import java.awt.Color;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The gate's failed sizes named on a plot, each label over its cross and wholly inside the plot: moved in from an
 * edge, stacked above a neighbour it would cover, and under its cross when there is no room above. XChart's own
 * AnnotationText centres its text on the point, where it hides the cross, covers the next size's label and is cut
 * off at the plot's edge (issue 50: "busbw -68.0%" at 64 MiB ended at the image's border).
 */
final class MarkLabels extends Annotation {
    /** Pixels between a label and the plot's edge, and between a label and its cross. */
    static final int PAD = 4;
    static final int GAP = 8;
    private static final Color HALO = new Color(255, 255, 255, 210);

    /** One label: where its cross is, in the plot's values, and what it says. */
    record Label(double x, double y, String text) {
    }

    private final List<Label> labels;
    private final List<Rectangle2D> placed = new ArrayList<>();
    private Rectangle2D plot;

    MarkLabels(List<Label> labels) {
        super(false);
        this.labels = labels.stream().sorted(Comparator.comparingDouble(Label::x)).toList();
    }

    @Override
    public void paint(Graphics2D g) {
        placed.clear();
        if (!isVisible) {
            return;
        }
        g.setFont(styler.getAnnotationTextFont());
        FontMetrics fm = g.getFontMetrics();
        double left = getXAxisScreenValueForMin();
        double right = getXAxisScreenValueForMax();
        double top = getYAxisScreenValueForMin();
        double bottom = getYAxisScreenValueForMax();
        plot = new Rectangle2D.Double(left, top, right - left, bottom - top);
        double h = fm.getAscent() + fm.getDescent();
        for (Label l : labels) {
            double w = fm.stringWidth(l.text());
            double px = getXAxisScreenValue(l.x());
            double py = getYAxisScreenValue(l.y());
            double x = Math.max(left + PAD, Math.min(px - w / 2, right - PAD - w));
            double y = py - GAP - h;
            while (y >= top + PAD && covers(x, y, w, h)) {
                y -= h;
            }
            if (y < top + PAD) {
                y = py + GAP;
                while (y + h <= bottom - PAD && covers(x, y, w, h)) {
                    y += h;
                }
                y = Math.min(y, bottom - PAD - h);
            }
            Rectangle2D box = new Rectangle2D.Double(x, y, w, h);
            // a light ground under the text, so that a curve or a marker it crosses does not hide a digit
            g.setColor(HALO);
            g.fill(box);
            g.setColor(styler.getAnnotationTextFontColor());
            g.drawString(l.text(), (float) x, (float) (y + fm.getAscent()));
            placed.add(box);
        }
        bounds = placed.stream().reduce(Rectangle2D::createUnion).orElse(null);
    }

    private boolean covers(double x, double y, double w, double h) {
        return placed.stream().anyMatch(r -> r.intersects(x, y, w, h));
    }

    /** Where each label was drawn, in pixels, after the last paint. */
    List<Rectangle2D> placed() {
        return List.copyOf(placed);
    }

    /** What the labels say, in the order of their sizes. */
    List<String> texts() {
        return labels.stream().map(Label::text).toList();
    }

    /** The plot's area in pixels at the last paint. */
    Rectangle2D plot() {
        return plot;
    }
}
