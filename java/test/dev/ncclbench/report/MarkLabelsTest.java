package dev.ncclbench.report;

import org.junit.jupiter.api.Test;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;

import java.awt.geom.Rectangle2D;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The regression labels of a plot, painted by XChart into a real image (headless AWT): every one wholly inside the
 * plot and none over another, at the worst places: the last size at the right edge, the highest point at the top,
 * two neighbours with long labels (issue 50: the label at 64 MiB was cut off at the image's border).
 */
class MarkLabelsTest {
    static void inside(MarkLabels m) {
        Rectangle2D plot = m.plot();
        List<Rectangle2D> boxes = m.placed();
        assertEquals(m.texts().size(), boxes.size(), "every label drawn");
        for (Rectangle2D b : boxes) {
            assertTrue(plot.contains(b), "label " + b + " outside the plot " + plot);
            assertTrue(b.getWidth() > 20, "a label of text, not nothing: " + b);
        }
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                assertFalse(boxes.get(i).intersects(boxes.get(j)), "labels " + i + " and " + j + " overlap: " + boxes);
            }
        }
    }

    @Test
    void labelsAtTheEdgesStayInsideThePlotAndApart() throws Exception {
        XYChart c = Charts.chart("edges", "busbw (GB/s)");
        double[] x = {3, 10, 20, 25, 26};
        double[] y = {0.1, 1, 2, 4.2, 4.19};
        c.addSeries("run, out-of-place", x, y);
        MarkLabels m = new MarkLabels(List.of(
                new MarkLabels.Label(3, 0.1, "busbw -67.2%, in-place -67.3%"),
                new MarkLabels.Label(25, 4.2, "busbw -68.0%, in-place -67.3%"),
                new MarkLabels.Label(26, 4.19, "path rdma-gdr -> socket, in-place path rdma-gdr -> socket")));
        c.addAnnotation(m);
        BitmapEncoder.getBufferedImage(c); // paints: places the labels
        inside(m);
        // the rightmost label is moved in from the edge, not centred on its cross
        Rectangle2D last = m.placed().get(2);
        assertTrue(last.getMaxX() <= m.plot().getMaxX() - MarkLabels.PAD, last + " in " + m.plot());
    }
}
