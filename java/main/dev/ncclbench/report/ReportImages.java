package dev.ncclbench.report;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The plots as PNG (busbw above latency) and SVG. No display is needed: AWT runs headless. */
public final class ReportImages {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    private ReportImages() {
    }

    static List<XYChart> charts(ReportData d) {
        List<XYChart> out = new ArrayList<>();
        if (d.oneRank()) {
            out.add(Charts.algbw(d));
            out.add(Charts.time(d));
            return out;
        }
        out.add(Charts.busbw(d));
        XYChart lat = Charts.latency(d);
        if (lat != null) {
            out.add(lat);
        }
        return out;
    }

    /** One PNG: the busbw plot, and the latency plot under it when there are small sizes. */
    public static byte[] png(ReportData d) {
        List<XYChart> charts = charts(d);
        try {
            if (charts.size() == 1) {
                return BitmapEncoder.getBitmapBytes(charts.get(0), BitmapEncoder.BitmapFormat.PNG);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BitmapEncoder.saveBitmap(charts, charts.size(), 1, out, BitmapEncoder.BitmapFormat.PNG);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first plot as SVG: busbw, or algbw for one rank. */
    public static String svg(ReportData d) {
        return svg(charts(d).get(0));
    }

    /** Every plot as SVG, busbw first. */
    static List<String> svgs(ReportData d) {
        return charts(d).stream().map(ReportImages::svg).toList();
    }

    static String svg(XYChart chart) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            return out.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
