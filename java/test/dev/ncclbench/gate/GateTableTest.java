package dev.ncclbench.gate;

import dev.ncclbench.baseline.SizeKey;
import dev.ncclbench.baseline.SizeSamples;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gate's table as a new user read it (issue 50): a latency +475% with p < 0.001 was "ok" because the baseline's
 * noise was ±423%; a busbw change sat beside an interval of the time ratio; "table" in us beside a judged GB/s; "40
 * lines" meaning rows. Built from samples whose figures are known, through the gate's own compare.
 */
class GateTableTest {
    static final SizeKey SMALL = new SizeKey("all_reduce", 4096, "float", "sum", -1);
    static final SizeKey LARGE = new SizeKey("all_reduce", 4 << 20, "float", "sum", -1);

    /** n samples at {@code us}, the k-th nudged by k per mille so that ranks are not all ties. */
    static double[] around(double us, int n) {
        double[] g = new double[n];
        for (int k = 0; k < n; k++) {
            g[k] = us * (1 + k / 1000.0);
        }
        return g;
    }

    static SizeSamples samples(SizeKey key, double busbwTime, double[]... groups) {
        return new SizeSamples(key, List.of(groups), busbwTime, List.of());
    }

    /** Two baseline runs 5.2x apart (noise band +420%), and a run about 5.75x the pooled median, every sample slower. */
    static SizeResult noisyLatency() {
        SizeSamples base = samples(SMALL, 1000, around(10, 20), around(52, 20));
        SizeSamples run = samples(SMALL, 1000, around(180, 20));
        return new Gate(GateOptions.defaults()).compare(base, run, 2);
    }

    @Test
    void aChangeBeyondTheToleranceInsideTheNoiseIsTooNoisyNeverOk() {
        SizeResult s = noisyLatency();
        Statistics c = s.comparison();
        assertTrue(c.pSlower() < 0.001, "the rank test sees it: p " + c.pSlower());
        assertTrue(c.noise() > 4, "noise " + c.noise());
        assertTrue(s.change() > 3, "change " + s.change());
        assertFalse(c.reallySlower(GateOptions.DEFAULT_ALPHA), "inside the noise band");
        assertEquals(SizeResult.Status.TOO_NOISY, s.status());
        assertEquals("too noisy to judge", s.status().label);
        assertFalse(s.status().fails(), "not a failure: the gate cannot tell");

        GateReport r = report(s);
        assertEquals(GateReport.Verdict.PASS, r.verdict());
        String line = r.verdictLine();
        assertTrue(line.startsWith("PASS: 1 sizes compared with baseline lab, each placement on its own; 1 row too noisy"
                + " to judge (worse beyond the tolerance, inside the noise): all_reduce 4 KiB latency +"), line);
        assertTrue(line.contains("(noise ±4") && line.contains("record more runs into the baseline"), line);
        assertFalse(line.contains("within noise and tolerance"), line);
    }

    @Test
    void theSameChangeOutsideTheNoiseIsARegression() {
        SizeSamples base = samples(SMALL, 1000, around(10, 20), around(10.5, 20));
        SizeSamples run = samples(SMALL, 1000, around(57.5, 20));
        assertEquals(SizeResult.Status.REGRESSION, new Gate(GateOptions.defaults()).compare(base, run, 2).status());
    }

    @Test
    void aBusbwChangeAndItsIntervalAndNoiseReadInBusbw() {
        // the run takes about 2.8x the time: busbw about -64%; the interval and noise are busbw's too, not the time
        // ratio's (which would read [2.8, 2.9] beside "-64.5%")
        SizeSamples base = samples(LARGE, 4000, around(1000, 20), around(1010, 20));
        SizeSamples run = samples(LARGE, 4000, around(2833, 20));
        SizeResult s = new Gate(GateOptions.defaults()).compare(base, run, 2);
        assertEquals(SizeResult.Status.REGRESSION, s.status());
        assertEquals("busbw", s.metric());
        GateRow row = GateRow.of(s);
        assertTrue(s.change() > -0.66 && s.change() < -0.63, "change " + s.change());
        assertEquals(GateRow.signedPct(s.change()), row.change());
        double[] ci = s.changeInterval();
        assertTrue(ci[0] <= s.change() && s.change() <= ci[1] && ci[1] < 0, ci[0] + " " + ci[1]);
        assertTrue(row.interval().matches("\\[-6\\d\\.\\d%, -6\\d\\.\\d%\\]"), row.interval());
        assertTrue(row.baseline().endsWith(" GB/s") && row.run().endsWith(" GB/s"), row.toString());
        assertTrue(row.runTable().equals("-") || row.runTable().endsWith(" us"), row.runTable());
        assertTrue(row.noise().startsWith("±"), row.noise());
        assertTrue(s.noiseInMetric() < 1, "busbw cannot fall by more than 100%: " + s.noiseInMetric());
    }

    @Test
    void theTextSaysWhatEachColumnIsAndCountsRows() {
        GateReport r = report(noisyLatency());
        StringWriter w = new StringWriter();
        GateText.write(r, new PrintWriter(w));
        String text = w.toString();
        for (String l : GateRow.LEGEND) {
            assertTrue(text.contains("# " + l), l);
            assertTrue(l.length() < 110, "a terminal's width: " + l);
        }
        assertTrue(text.contains("95% interval") && text.contains("run table") && text.contains("(1 row)"), text);
        assertFalse(text.contains(" lines)") || text.contains("(ratio)") || text.contains("'table'"), text);
        String row = text.lines().filter(l -> l.startsWith("all_reduce")).findFirst().orElseThrow();
        assertTrue(row.endsWith("too noisy to judge"), row);
        assertTrue(row.contains(" oop ") && row.contains(" latency "), row);

        String md = GateMarkdown.render(r);
        assertTrue(md.contains("| " + String.join(" | ", GateRow.TITLES) + " |"), md);
        assertTrue(md.contains("| too noisy to judge |"), md);
        String junit = GateJunit.render(r);
        assertTrue(junit.contains("<skipped") && junit.contains("too noisy to judge"), junit);
    }

    static GateReport report(SizeResult s) {
        return new GateReport("run.json", "lab", "lab.baseline.json", 2, true, null, List.of(), List.of(s), List.of(),
                GateOptions.defaults().describe(), 0, false, null, null, null);
    }
}
