package dev.ncclbench.gate;

import dev.ncclbench.spec.Sizes;

import java.util.List;
import java.util.Locale;

/**
 * One row of the gate's table as every output prints it (the text, Markdown, the HTML report): the same cells, the
 * same units, the same words, so that no format says "ok" where another says "too noisy to judge".
 *
 * @param placement "out-of-place" or "in-place" (the text table abbreviates: oop, ip)
 * @param judged    "latency" or "busbw": the figure compared
 * @param baseline  the baseline's judged figure with its unit ("12.1 us", "4.19 GB/s"), "-" when absent
 * @param run       the run's
 * @param change    the run's change in the judged figure ("-67.2%"), "-" when not compared
 * @param interval  the 95% bootstrap interval of that change ("[-68.1%, -66.0%]"), "-" without samples on both sides
 * @param noise     how far the judged figure moves with nothing changed ("±4.9%"), "none" when unknown
 * @param p         the rank test: the chance of a run this much slower if nothing changed
 * @param runTable  the run's time as the sweep's table printed it (nccl-tests' mean of the timed loop), in us
 * @param fails     whether this row fails the gate
 */
public record GateRow(String collective, String size, String placement, String judged, String baseline, String run,
                      String change, String interval, String noise, String p, String runTable, String verdict,
                      boolean fails) {

    /** The column titles, in order. */
    public static final List<String> TITLES = List.of("collective", "size", "placement", "judged", "baseline", "run",
            "change", "95% interval", "noise", "p", "run table", "verdict");

    /**
     * What each column is, with its unit: one short line each, printed above the table in every format (a terminal's
     * width: the longest is under 110 characters).
     */
    public static final List<String> LEGEND = List.of(
            "each row: one collective, size and placement (out-of-place, in-place), the run against the baseline",
            "judged: latency (median time per call, us) or busbw (GB/s at that time), by size as the options say",
            "baseline, run: the judged figure of each side; change: the run's, with its 95% bootstrap interval",
            "noise: how far the judged figure moves with nothing changed; a change inside it is too noisy to judge",
            "p: the rank test, the chance of samples this much slower if nothing changed",
            "run table: the run's time per call as the sweep's table printed it (nccl-tests' mean of the loop), us");

    public static GateRow of(SizeResult s) {
        Statistics c = s.comparison();
        double[] ci = s.changeInterval();
        boolean tolOnly = c != null && c.tableOnly();
        return new GateRow(s.key().collective(),
                Sizes.human(s.key().size()) + (s.key().root() >= 0 ? " r" + s.key().root() : ""),
                s.key().placement(), s.metric(), value(s, s.baselineValue()), value(s, s.runValue()),
                Double.isFinite(s.change()) ? signedPct(s.change()) : "-",
                Double.isFinite(ci[0]) ? "[" + signedPct(ci[0]) + ", " + signedPct(ci[1]) + "]" : "-",
                c == null ? "-" : tolOnly && c.baselineGroups() < 2 ? "none" : "±" + GateOptions.pct(s.noiseInMetric()),
                c == null || tolOnly ? "-" : p(c.pSlower()), us(s.runTableUs()),
                s.status().label + (tolOnly ? " (tolerance only)" : "") + pathNote(s), s.status().fails());
    }

    /** The rows of a report, in its order. */
    public static List<GateRow> of(GateReport r) {
        return r.sizes().stream().map(GateRow::of).toList();
    }

    /** "oop" or "ip": the text table's narrow column. */
    public String placementShort() {
        return placement.equals("in-place") ? "ip" : "oop";
    }

    /** Every cell in {@link #TITLES}' order. */
    public List<String> cells() {
        return List.of(collective, size, placement, judged, baseline, run, change, interval, noise, p, runTable,
                verdict);
    }

    static String value(SizeResult s, double v) {
        if (!Double.isFinite(v)) {
            return "-";
        }
        return s.latency() ? String.format(Locale.ROOT, "%.1f us", v) : String.format(Locale.ROOT, "%.3g GB/s", v);
    }

    static String us(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2f us", v) : "-";
    }

    /** "+20.3%" or "-5.0%". */
    public static String signedPct(double change) {
        return String.format(Locale.ROOT, "%+.1f%%", change * 100);
    }

    static String p(double p) {
        return p < 0.001 ? "<0.001" : String.format(Locale.ROOT, "%.3f", p);
    }

    private static String pathNote(SizeResult s) {
        if (!s.basePath().isEmpty() && !s.runPath().isEmpty() && !s.basePath().equals(s.runPath())) {
            return " (path " + s.basePath() + " -> " + s.runPath() + ")";
        }
        return "";
    }
}
