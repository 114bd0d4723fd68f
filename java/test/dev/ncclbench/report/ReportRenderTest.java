package dev.ncclbench.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ncclbench.SlowedRuns;
import dev.ncclbench.cli.Main;
import dev.ncclbench.gate.GateJudge;
import dev.ncclbench.gate.GateOptions;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.output.Json;
import dev.ncclbench.results.ResultInput;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ncclbench report on a real loopback run and a baseline of it: the PNG is a real image of the plots, the SVG is
 * SVG, and the HTML opens in headless Chromium (Debian's) with no console error and a screenshot is taken.
 */
class ReportRenderTest {
    @TempDir
    Path dir;

    static int cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        assertTrue(code == 0 || code == 6, String.join(" ", args) + ": " + out + err);
        return code;
    }

    static String chromium() {
        for (String c : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
                if (Files.isExecutable(Path.of(d, c))) {
                    return Path.of(d, c).toString();
                }
            }
        }
        return null;
    }

    /**
     * A run made ten times slower against a baseline of it (issue 50): the page starts with what ran (when, where, the
     * backend, the versions, the command), the table says which run it covers, the legend says the curves are out of
     * place, and each failed size is named by a label inside the plot.
     */
    @Test
    void aRegressionIsNamedInsideThePlotAndThePageSaysWhatRan() throws Exception {
        Path run = dir.resolve("run.json");
        cli("sweep", "--backend", "socket", "--ranks", "2", "-b", "256K", "-e", "4M", "-f", "4", "-n", "5",
                "--no-progress", "--json", run.toString(), "--out", dir.toString());
        // each placement's samples at their median, then ten times that: every busbw size regresses
        ObjectNode doc = (ObjectNode) Json.mapper().readTree(run.toFile());
        SlowedRuns.scaleSamples(doc, 1);
        Json.mapper().writeValue(run.toFile(), doc);
        SlowedRuns.scaleSamples(doc, 10);
        Path slow = dir.resolve("slow.json");
        Json.mapper().writeValue(slow.toFile(), doc);
        Path bl = dir.resolve("bl");
        cli("baseline", "record", "--dir", bl.toString(), "--name", "ten", run.toString());
        Path html = dir.resolve("slow.html");
        cli("report", "--dir", bl.toString(), "--html", html.toString(), "--png", dir.resolve("slow.png").toString(),
                run.toString(), slow.toString());

        String h = Files.readString(html, StandardCharsets.UTF_8);
        int facts = h.indexOf("<table id=\"run\"");
        assertTrue(facts > 0 && facts < h.indexOf("id=\"verdict\""), "what ran, first: " + h);
        for (String fact : List.of("<th class=\"l\">when</th>", "<th class=\"l\">hosts</th>",
                "<th class=\"l\">backend</th><td class=\"l\">socket", "<th class=\"l\">ranks</th><td class=\"l\">2 on 1 node",
                "<th class=\"l\">versions</th>", "<th class=\"l\">command</th><td class=\"l\">ncclbench sweep --backend socket")) {
            assertTrue(h.contains(fact), fact + " in " + h.substring(facts, h.indexOf("</table>", facts)));
        }
        assertTrue(h.contains("<h2>Per size: " + slow + " against baseline ten (1 run, same fingerprint)</h2>"), h);
        assertTrue(h.contains("<th>95% interval</th>") && h.contains("<td class=\"l\">in-place</td>"), h);

        RunReport.Judged r = RunReport.assemble(List.of(new ReportData.Run("run", run.toString(), ResultInput.read(run)),
                new ReportData.Run("slow", slow.toString(), ResultInput.read(slow))),
                new GateJudge(bl, GateOptions.defaults(), null, null, null, Set.of(), null), null);
        assertEquals(GateReport.Verdict.REGRESSION, r.gate().verdict(), r.gate().verdictLine());
        XYChart busbw = Charts.busbw(r.data());
        assertTrue(busbw.getSeriesMap().containsKey("slow, out-of-place")
                && busbw.getSeriesMap().containsKey("baseline ten, out-of-place"), busbw.getSeriesMap().keySet().toString());
        XYChart c = Charts.chart("marks", "busbw (GB/s)");
        r.data().curves().forEach(curve -> c.addSeries(curve.label(), curve.points().stream()
                .mapToDouble(p -> Charts.log2(p.size())).toArray(), curve.points().stream()
                .mapToDouble(ReportData.Point::busbw).toArray()));
        MarkLabels m = Charts.marks(c, r.data(), false);
        BitmapEncoder.getBufferedImage(c);
        assertEquals(List.of("busbw -90.0%, in-place -90.0%", "busbw -90.0%, in-place -90.0%"), m.texts());
        MarkLabelsTest.inside(m);
    }

    @Test
    void theReportRendersWithItsPlots() throws Exception {
        List<Path> runs = new ArrayList<>();
        for (String n : List.of("a")) {
            Path j = dir.resolve(n + ".json");
            cli("sweep", "--backend", "socket", "--ranks", "2", "-b", "8", "-e", "4M", "-f", "16", "-n", "5",
                    "--no-progress", "--json", j.toString(), "--out", dir.toString());
            runs.add(j);
        }
        Path bl = dir.resolve("bl");
        cli("baseline", "record", "--dir", bl.toString(), "--name", "a", runs.get(0).toString());
        Path html = dir.resolve("report.html");
        Path png = dir.resolve("report.png");
        Path svg = dir.resolve("report.svg");
        cli("report", "--dir", bl.toString(), "--fabric", "eth-10g", "--socket-floor", "0.5", "--html", html.toString(),
                "--png", png.toString(), "--svg", svg.toString(), runs.get(0).toString());

        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(960, img.getWidth());
        assertEquals(2 * 540, img.getHeight()); // busbw above latency
        String s = Files.readString(svg, StandardCharsets.UTF_8);
        // VectorGraphics2D draws text as outlines: the plot is paths, not text elements
        assertTrue(s.contains("<svg") && s.contains("viewBox=\"0 0 960 540\"") && s.contains("<path"),
                s.substring(0, Math.min(300, s.length())));
        String h = Files.readString(html, StandardCharsets.UTF_8);
        assertEquals(2, h.split("<svg", -1).length - 1, "two inline plots");
        assertFalse(h.contains("http://") && h.contains("<script"), "no network, no script");
        assertTrue(h.contains("id=\"verdict\"") && h.contains("baseline a"), "verdict and baseline");

        String chrome = chromium();
        Assumptions.assumeTrue(chrome != null, "needs Chromium (apt-get install chromium)");
        Path shot = dir.resolve("screenshot.png");
        List<String> cmd = List.of(chrome, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--enable-logging=stderr", "--v=0", "--user-data-dir=" + dir.resolve("chrome"),
                "--window-size=1100,1800", "--screenshot=" + shot, html.toUri().toString());
        Path log = dir.resolve("chrome.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium did not finish");
        String logText = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), logText);
        assertTrue(Files.size(shot) > 10_000, "screenshot " + Files.size(shot) + " bytes");
        for (String line : logText.lines().toList()) {
            assertFalse(line.contains(":CONSOLE(") || line.contains("Uncaught"), "console error: " + line);
        }
    }
    /**
     * fleet's report with a rail round (issue 54): Chromium parses the nodes x rails heat map, a cell per rail the node
     * has, the slow and the down rail written in their cells, and the rails' table names the slow rail.
     */
    @Test
    void fleetsRailHeatMapParsesInChromium() throws Exception {
        String chrome = chromium();
        Assumptions.assumeTrue(chrome != null, "needs Chromium (apt-get install chromium)");
        Path html = dir.resolve("fleet.html");
        dev.ncclbench.fleet.FleetOutputs.write(new dev.ncclbench.fleet.FleetOutputs.Paths(dir.resolve("fleet.json"), html,
                dir.resolve("drain.txt"), dir.resolve("fleet-junit.xml"), dir.resolve("fleet.prom")),
                dev.ncclbench.fleet.FleetGolden.withRails(), "golden");
        List<String> cmd = List.of(chrome, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--user-data-dir=" + dir.resolve("chrome"), "--dump-dom", html.toUri().toString());
        Path dom = dir.resolve("dom.html");
        Process p = new ProcessBuilder(cmd).redirectError(dir.resolve("chrome.log").toFile()).redirectOutput(dom.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium did not finish");
        String d = Files.readString(dom, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("chrome.log"), StandardCharsets.UTF_8));
        assertEquals(6, d.split("<g class=\"rail ok\"", -1).length - 1, "eight rails: six ok, one slow, one down");
        assertTrue(d.contains("<g class=\"rail slow\">") && d.contains(">slow</text>"), "the slow rail's cell");
        assertTrue(d.contains("<g class=\"rail down\">") && d.contains(">down</text>"), "the down rail's cell");
        assertTrue(d.contains("node2 rail 1 (eth2): 12.0 MB/s, siblings 24.0 MB/s"), "the slow rail's reason in its cell");
        assertTrue(d.contains("<td>eth2</td><td>slow</td>"), "the rails' table");
    }
}
