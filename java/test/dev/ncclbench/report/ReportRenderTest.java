package dev.ncclbench.report;

import dev.ncclbench.cli.Main;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
