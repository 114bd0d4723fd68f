package dev.ncclbench.gate;

import dev.ncclbench.baseline.Fingerprint;
import dev.ncclbench.finding.Finding;
import dev.ncclbench.finding.Severity;
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
        out.println("# gate: " + r.runFile() + " " + against(r));
        out.println("# " + r.options());
        for (String st : statistics(r)) {
            out.println("# judged on " + st);
        }
        GateRow.LEGEND.forEach(l -> out.println("# " + l));
        String format = "%-14s %9s %-3s %-7s %12s %12s %8s %18s %7s %6s %12s  %s%n";
        out.printf(Locale.ROOT, format, "# collective", "size", "pl", "judged", "baseline", "run", "change",
                "95% interval", "noise", "p", "run table", "verdict");
        for (GateRow row : GateRow.of(r)) {
            out.printf(Locale.ROOT, format, row.collective(), row.size(), row.placementShort(), row.judged(),
                    row.baseline(), row.run(), row.change(), row.interval(), row.noise(), row.p(), row.runTable(),
                    row.verdict());
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

    /** "against baseline X (2 runs, same fingerprint)", or why there is none. */
    public static String against(GateReport r) {
        if (r.baselineName() != null) {
            return String.format(Locale.ROOT, "against baseline %s (%d run%s, %s fingerprint)", r.baselineName(),
                    r.baselineRuns(), r.baselineRuns() == 1 ? "" : "s",
                    r.exactMatch() ? "same" : "same topology, changed");
        }
        return r.curveOnly() ? "with the curve check alone (--curve-only): no baseline looked for"
                : "with no baseline: none found, nothing compared (the verdict says where the gate looked)";
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
        r.curve().stream().filter(f -> f.severity() == Severity.ERROR)
                .forEach(f -> parts.add(f.title()));
        String head = r.verdict().name();
        if (r.verdict() == GateReport.Verdict.NO_BASELINE) {
            return head + ": nothing compared: " + r.noBaseline().text()
                    + " (the curve check found nothing that degrades the path)" + partialNote(r);
        }
        if (parts.isEmpty()) {
            return head + ": " + (r.baselineName() == null
                    ? "the curve check alone (--curve-only) found nothing that degrades the path; no baseline compared"
                    : r.comparedSizes() + " sizes " + (r.tooNoisy().isEmpty() ? "within noise and tolerance of"
                    : "compared with") + " baseline " + r.baselineName() + ", each placement on its own")
                    + tooNoisyNote(r) + oneSidedNote(r) + partialNote(r);
        }
        String changed = r.baselineName() == null ? "; no baseline compared" + (r.noBaseline() == null ? " (--curve-only)"
                : ": " + r.noBaseline().sentence())
                : r.changes().isEmpty() ? "; nothing changed in the fingerprint"
                : "; what changed: " + String.join(", ", r.changes().stream().map(Fingerprint.Change::text).toList());
        return head + ": " + String.join("; ", parts) + changed + tooNoisyNote(r)
                + (r.requireAllSizes() ? "" : oneSidedNote(r)) + partialNote(r);
    }

    /**
     * "; 2 rows too noisy to judge (worse beyond the tolerance, inside the noise): all_reduce 4 MiB busbw -72.9%
     * (noise ±96.4%), ...; record more runs into the baseline to judge them".
     */
    private static String tooNoisyNote(GateReport r) {
        List<SizeResult> noisy = r.tooNoisy();
        if (noisy.isEmpty()) {
            return "";
        }
        List<String> named = noisy.stream().map(s -> s.key().label() + " " + s.changeText() + " (noise ±"
                + GateOptions.pct(s.noiseInMetric()) + ")").toList();
        return "; " + noisy.size() + (noisy.size() == 1 ? " row" : " rows") + " too noisy to judge (worse beyond the"
                + " tolerance, inside the noise): " + String.join(", ", named) + "; record more runs into the baseline"
                + " (ncclbench baseline record --append) or run on a quieter machine to judge "
                + (noisy.size() == 1 ? "it" : "them");
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

    /** Each statistic the report judged on, with how many rows: the reader must know what "run" means. */
    public static List<String> statistics(GateReport r) {
        java.util.Map<String, Integer> by = new java.util.LinkedHashMap<>();
        r.sizes().forEach(s -> by.merge(s.statistic(), 1, Integer::sum));
        List<String> out = new ArrayList<>();
        by.forEach((st, n) -> out.add(st + " (" + n + (n == 1 ? " row)" : " rows)")));
        return out;
    }
}
