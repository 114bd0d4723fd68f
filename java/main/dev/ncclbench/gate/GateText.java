package dev.ncclbench.gate;

import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.spec.Sizes;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The human table: one line per collective and size, then what changed, the curve check and the verdict. */
public final class GateText {
    private GateText() {
    }

    public static void write(GateReport r, PrintWriter out) {
        writeTable(r, out);
        out.println(r.verdictLine());
        out.flush();
    }

    /**
     * All but the verdict line: for a command whose own verdict line says the gate's (preflight's "PASS: ...;
     * doctor: 2 warnings" carries the gate's reason), so that one run prints one verdict.
     */
    public static void writeTable(GateReport r, PrintWriter out) {
        if (r.baselineName() != null) {
            out.printf(Locale.ROOT, "# gate: %s against baseline %s (%d run%s, %s fingerprint)%n", r.runFile(),
                    r.baselineName(), r.baselineRuns(), r.baselineRuns() == 1 ? "" : "s",
                    r.exactMatch() ? "same" : "same topology, changed");
        } else {
            out.printf(Locale.ROOT, "# gate: %s, no baseline: the curve check alone%n", r.runFile());
        }
        out.println("# " + r.options());
        for (String st : statistics(r)) {
            out.println("# judged on " + st);
        }
        out.println("# 'table' is the run's time as the sweep's table printed it (nccl-tests' mean over the timed"
                + " loop), beside the judged figure");
        out.printf(Locale.ROOT, "%-14s %9s %-3s %-7s %12s %12s %10s %8s %6s %7s %15s  %s%n", "# collective", "size",
                "pl", "judged", "baseline", "run", "table", "change", "noise", "p", "95% CI (ratio)", "verdict");
        for (SizeResult s : r.sizes()) {
            Comparison c = s.comparison();
            out.printf(Locale.ROOT, "%-14s %9s %-3s %-7s %12s %12s %10s %8s %6s %7s %15s  %s%n", s.key().collective(),
                    Sizes.human(s.key().size()) + (s.key().root() >= 0 ? " r" + s.key().root() : ""),
                    s.key().inPlace() ? "ip" : "oop", s.metric(),
                    value(s, s.baselineValue()), value(s, s.runValue()), us(s.runTableUs()),
                    Double.isFinite(s.change()) ? signedPct(s.change()) : "-",
                    c == null ? "-" : c.tableOnly() && c.baselineGroups() < 2 ? "none" : "±" + GateOptions.pct(c.noise()),
                    c == null || c.tableOnly() ? "-" : p(c.pSlower()),
                    c == null || c.tableOnly() ? "-" : String.format(Locale.ROOT, "[%.2f, %.2f]", c.ciLow(), c.ciHigh()),
                    s.status().label + (c != null && c.tableOnly() ? " (tolerance only)" : "") + pathNote(s));
        }
        if (!r.changes().isEmpty()) {
            out.println("# what changed since the baseline:");
            for (Fingerprint.Change c : r.changes()) {
                out.println("#   " + c.kind() + " " + c.text());
            }
        }
        for (Finding f : r.curve()) {
            out.println("# curve " + f.ruleId() + " (" + f.severity().name().toLowerCase(Locale.ROOT) + "): "
                    + f.title());
        }
        List<String> nccl = r.ncclChoiceLines();
        if (!nccl.isEmpty()) {
            out.println("# what NCCL decided differently from the baseline:");
            nccl.forEach(l -> out.println("#   " + l));
        }
        out.flush();
    }

    static String verdictLine(GateReport r) {
        if (r.verdict() == GateReport.Verdict.NOTHING_TO_COMPARE) {
            return "NOTHING_TO_COMPARE: nothing to compare: " + r.runFile() + " has " + range(r, true)
                    + ", baseline " + r.baselineName() + " has " + range(r, false) + partialNote(r);
        }
        List<SizeResult> failing = r.failing();
        List<String> parts = new ArrayList<>();
        for (SizeResult s : failing) {
            parts.add(s.key().label() + " " + (s.status() == SizeResult.Status.DEGRADED_PATH
                    ? "path " + s.basePath() + " -> " + s.runPath()
                    : s.comparison() == null ? s.status().label : s.changeText()));
        }
        r.curve().stream().filter(f -> f.severity() == dev.ncclbench.finding.Severity.ERROR)
                .forEach(f -> parts.add(f.title()));
        String head = r.verdict().name();
        if (parts.isEmpty()) {
            return head + ": " + (r.baselineName() == null ? "the curve check found nothing that degrades the path"
                    : r.comparedSizes() + " sizes within noise and tolerance of baseline " + r.baselineName()
                    + ", each placement on its own")
                    + oneSidedNote(r) + partialNote(r);
        }
        String changed = r.changes().isEmpty() ? "; nothing changed in the fingerprint"
                : "; what changed: " + String.join(", ", r.changes().stream().map(Fingerprint.Change::text).toList());
        return head + ": " + String.join("; ", parts) + changed + (r.requireAllSizes() ? "" : oneSidedNote(r))
                + partialNote(r);
    }

    /** "; not compared (in one side only): all_reduce 8 MiB (not in run)". */
    private static String oneSidedNote(GateReport r) {
        List<SizeResult> one = r.oneSided();
        if (one.isEmpty() || r.baselineName() == null) {
            return "";
        }
        // a size missing in both placements is named once, without the placement
        java.util.Set<String> both = new java.util.HashSet<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (SizeResult s : one) {
            String k = s.key().withInPlace(false).label() + " (" + s.status().label + ")";
            if (!seen.add(k)) {
                both.add(k);
            }
        }
        java.util.Set<String> listed = new java.util.LinkedHashSet<>();
        for (SizeResult s : one) {
            String k = s.key().withInPlace(false).label() + " (" + s.status().label + ")";
            listed.add(both.contains(k) ? k : s.key().label() + " (" + s.status().label + ")");
        }
        return "; not compared (in one side only): " + String.join(", ", listed);
    }

    private static String partialNote(GateReport r) {
        return r.partialStatus() == null ? "" : "; the run is " + Admission.describe(r.partialStatus())
                + ": only its " + r.sizes().stream().filter(s -> s.status() != SizeResult.Status.MISSING)
                .map(s -> s.key().withInPlace(false)).distinct().count()
                + " measured sizes judged (--allow-partial)";
    }

    /** "all_reduce float 1 KiB-4 MiB (4 sizes)" for the run's side or the baseline's. */
    private static String range(GateReport r, boolean run) {
        java.util.Map<String, List<Long>> by = new java.util.TreeMap<>();
        for (SizeResult s : r.sizes()) {
            boolean inRun = s.status() != SizeResult.Status.MISSING;
            boolean inBase = s.status() != SizeResult.Status.NEW;
            if (run ? inRun : inBase) {
                List<Long> sizes = by.computeIfAbsent(s.key().collective() + " " + s.key().type(), k -> new ArrayList<>());
                if (!sizes.contains(s.key().size())) {
                    sizes.add(s.key().size()); // a size's two placements are one size
                }
            }
        }
        if (by.isEmpty()) {
            return "no sizes";
        }
        List<String> out = new ArrayList<>();
        by.forEach((k, v) -> out.add(k + " " + Sizes.human(java.util.Collections.min(v)) + "-"
                + Sizes.human(java.util.Collections.max(v)) + " (" + v.size() + (v.size() == 1 ? " size)" : " sizes)")));
        return String.join(", ", out);
    }

    /** Each statistic the report judged on, with how many lines: the reader must know what "run" means. */
    public static List<String> statistics(GateReport r) {
        java.util.Map<String, Integer> by = new java.util.LinkedHashMap<>();
        r.sizes().forEach(s -> by.merge(s.statistic(), 1, Integer::sum));
        List<String> out = new ArrayList<>();
        by.forEach((st, n) -> out.add(st + " (" + n + (n == 1 ? " line)" : " lines)")));
        return out;
    }

    public static String us(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2f us", v) : "-";
    }

    static String value(SizeResult s, double v) {
        if (!Double.isFinite(v)) {
            return "-";
        }
        return s.latency() ? String.format(Locale.ROOT, "%.1f us", v) : String.format(Locale.ROOT, "%.3g GB/s", v);
    }

    static String signedPct(double change) {
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
