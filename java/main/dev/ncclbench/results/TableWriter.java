package dev.ncclbench.results;

import dev.ncclbench.spec.RunSpec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The nccl-tests result table, byte-compatible with nccl-tests v2.19.6 so that existing parsers keep
 * working: each collective gets the preamble, header, rows and footer one nccl-tests binary prints.
 * Everything of ours is on a line starting with '#', which those parsers skip.
 *
 * <p>Numbers go through {@link CFormat} only, never through the default locale.
 */
final class TableWriter implements ResultSink {
    /** "cuda:3 [0000:18:00.0] NVIDIA H200": the NCCL backend's device string, printed as nccl-tests' "device  3 ...". */
    private static final Pattern CUDA_DEVICE = Pattern.compile("cuda:(\\d+)\\s+(.*)");

    /** nccl-tests' TIME_STRING_FORMAT "%Y-%m-%d %H:%M:%S", in local time as its formatNow. */
    private static final java.time.format.DateTimeFormatter TIMESTAMP =
            java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    private final PrintWriter out;
    private final java.time.Clock clock;
    private final IterationClock iterationClock;
    private ResultDocument run;
    private String openCollective;
    private final List<ResultRow> tableRows = new ArrayList<>();

    TableWriter(PrintWriter out, IterationClock iterationClock) {
        this(out, iterationClock, java.time.Clock.systemDefaultZone());
    }

    /**
     * @param iterationClock what -R's per-iteration times were measured with
     * @param clock          the -S timestamps' clock and zone
     */
    TableWriter(PrintWriter out, IterationClock iterationClock, java.time.Clock clock) {
        this.out = out;
        this.iterationClock = Objects.requireNonNull(iterationClock, "iterationClock");
        this.clock = clock;
    }

    @Override
    public void beginRun(ResultDocument run) {
        this.run = Objects.requireNonNull(run, "run");
    }

    @Override
    public void beginCollective(String collective) {
        if (run == null) {
            throw new IllegalStateException("beginCollective before beginRun");
        }
        if (openCollective != null) {
            throw new IllegalStateException("beginCollective(" + collective + ") while " + openCollective + " is open");
        }
        openCollective = collective;
        tableRows.clear();
        preamble(collective);
        header();
        out.flush();
    }

    @Override
    public void row(ResultRow row) {
        if (openCollective == null) {
            throw new IllegalStateException("row outside beginCollective/endCollective");
        }
        tableRows.add(row);
        out.print(formatRow(row, run.spec()));
        if (run.spec().ncclTests().flags().reportTimestamps() != 0) {
            // "%21s" after the row (after the in-place i_* columns with -I 1)
            out.print(CFormat.padLeft(TIMESTAMP.format(java.time.LocalDateTime.now(clock)), 21));
        }
        out.print('\n');
        out.flush();
    }

    @Override
    public void endCollective(String collective) {
        if (openCollective == null) {
            throw new IllegalStateException("endCollective(" + collective + ") without beginCollective");
        }
        footer(openCollective);
        openCollective = null;
        out.flush();
    }

    @Override
    public void verdicts(List<ResultRow> diagnosed) {
        List<String> lines = VerdictSummary.lines(diagnosed);
        if (lines.isEmpty()) {
            return;
        }
        out.print("#\n");
        for (String line : lines) {
            comment("Path: " + line);
        }
        out.print("#\n");
        out.flush();
    }

    @Override
    public void finish(String status, String error) {
        ResultSink.checkStatus(status);
        if (openCollective != null) {
            // No footer: an average over the rows that happened to finish would read as a result.
            comment("Collective test stopped: " + openCollective + "_perf (" + status + ")");
            openCollective = null;
        }
        if (!"ok".equals(status) || error != null) {
            comment("Run status: " + status);
            if (error != null) {
                comment("error: " + error);
            }
        }
        out.flush();
    }

    /** nccl-tests' device report: the lines before the table. */
    private void preamble(String collective) {
        RunSpec spec = run.spec();
        // nccl-tests prints its own version line here ("# nccl-tests version ..."); this is ours, and it says which
        // backend runs and why (backend_reason), as the sweep's stderr line does
        boolean why = run.backendReason() != null && !run.backendReason().isBlank();
        // one line whatever its length: what `grep '^# ncclbench version'` finds (and the sweep's first stderr line)
        comment("ncclbench version " + run.toolVersion() + " backend " + run.backend()
                + (why ? " (" + run.backendReason() + ")" : ""));
        out.print("# Collective test starting: " + collective + "_perf\n");
        boolean factor = spec.range().stepFactor() > 1;
        out.print("# nThread " + spec.devices().threads() + " nGpus " + spec.devices().gpusPerThread()
                + " minBytes " + spec.range().minBytes() + " maxBytes " + spec.range().maxBytes()
                + " step: " + (factor ? spec.range().stepFactor() : spec.range().stepBytes()) + (factor ? "(factor)" : "(bytes)")
                + " warmup iters: " + spec.iterations().warmupIters() + " iters: " + spec.iterations().iters()
                + " agg iters: " + spec.iterations().aggIters() + " validation: " + spec.data().checkIters()
                + " graph: " + spec.devices().cudaGraph() + " unalign: " + spec.ncclTests().flags().unalign() + "\n");
        switch (spec.timing().blocking()) {
            case 1 -> out.print("# Blocking Enabled: wait and barrier after each inner iteration (-m) \n");
            case 2 -> out.print("# Blocking Enabled: wait after each inner iteration (-m), no barrier \n");
            case 3 -> out.print("# Blocking Enabled: wait and barrier after each outer iteration (-n); "
                    + "time excludes barrier \n");
            default -> {
            }
        }
        if (spec.devices().perIterTiming() != 0) {
            // nccl-tests says "CUDA event timing"; a host-timed backend says what it timed with
            out.print("# Per-Iteration Report: " + iterationClock.label
                    + " timing; i_* uses max over process rows");
            if (spec.ncclTests().flags().perIterSkip() != 0) {
                out.print("; summary skips first " + spec.ncclTests().flags().perIterSkip() + " iterations");
            }
            out.print(" \n");
        }
        if (spec.ncclTests().flags().parallelInit() != 0) {
            out.print("# Parallel Init Enabled: threads call into NcclInitRank concurrently \n");
        }
        if (run.notes() != null) {
            for (String note : run.notes()) {
                note(note);
            }
        }
        out.print("#\n");
        out.print("# Using devices\n");
        if (run.ranks() != null) {
            for (RankInfo rank : run.ranks()) {
                out.print(rankLine(rank));
                out.print('\n');
            }
        }
    }

    static String rankLine(RankInfo rank) {
        String device = rank.device() == null ? "" : rank.device();
        Matcher cuda = CUDA_DEVICE.matcher(device);
        if (cuda.matches()) {
            device = CFormat.padLeft(cuda.group(1), 2) + " " + cuda.group(2);
        }
        return "#  Rank " + CFormat.padLeft(Integer.toString(rank.rank()), 2)
                + " Group " + CFormat.padLeft(Integer.toString(rank.group()), 2) + " Pid " + CFormat.padLeft(Long.toString(rank.pid()), 6)
                + " on " + CFormat.padLeft(rank.host(), 10) + " device " + device;
    }

    /** util.cu's writeResultHeader: -I 1 adds the i_* columns, -S the timestamp column, -C says cputime. */
    private void header() {
        RunSpec spec = run.spec();
        boolean ts = spec.ncclTests().flags().reportTimestamps() != 0;
        String time = spec.ncclTests().flags().reportCputime() != 0 ? "cputime" : "time";
        // the trailing "%*s": width 0 (one space) without -S, since v2.17.7
        String tsLabel = " " + (ts ? CFormat.padLeft("timestamp", 19) : "");
        String tsUnit = " " + (ts ? CFormat.padLeft("%Y-%m-%d %H:%M:%S", 19) : "");
        out.print("#\n");
        if (spec.devices().perIterTiming() != 0) {
            out.print("# " + cols("", "", "", "", "") + "              out-of-place (+ per-iteration)"
                    + "                                in-place (+ per-iteration)\n");
            String names = placementHeader(time, "algbw", "busbw", "#wrong") + iterHeader("i_min", "i_max", "i_p99", "i_cv%");
            String units = placementHeader("(us)", "(GB/s)", "(GB/s)", "") + iterHeader("(us)", "(us)", "(us)", "(%)");
            out.print("# " + cols("size", "count", "type", "redop", "root") + names + names + tsLabel + "\n");
            out.print("# " + cols("(B)", "(elements)", "", "", "") + units + units + tsUnit + "\n");
            return;
        }
        out.print("# " + cols("", "", "", "", "")
                + "           out-of-place                       in-place          \n");
        out.print("# " + cols("size", "count", "type", "redop", "root")
                + placementHeader(time, "algbw", "busbw", "#wrong")
                + placementHeader(time, "algbw", "busbw", "#wrong") + tsLabel + "\n");
        out.print("# " + cols("(B)", "(elements)", "", "", "")
                + placementHeader("(us)", "(GB/s)", "(GB/s)", "")
                + placementHeader("(us)", "(GB/s)", "(GB/s)", "") + tsUnit + "\n");
    }

    private static String iterHeader(String min, String max, String p99, String cv) {
        return "  " + CFormat.padLeft(min, 7) + "  " + CFormat.padLeft(max, 7) + "  " + CFormat.padLeft(p99, 7) + "  "
                + CFormat.padLeft(cv, 7);
    }

    /** "%10s  %12s  %8s  %6s  %6s": after "# " the size column ends where the rows' "%12li" ends. */
    private static String cols(String size, String count, String type, String redop, String root) {
        return CFormat.padLeft(size, 10) + "  " + CFormat.padLeft(count, 12) + "  " + CFormat.padLeft(type, 8)
                + "  " + CFormat.padLeft(redop, 6) + "  " + CFormat.padLeft(root, 6);
    }

    private static String placementHeader(String time, String algbw, String busbw, String wrong) {
        return "  " + CFormat.padLeft(time, 7) + "  " + CFormat.padLeft(algbw, 6) + "  " + CFormat.padLeft(busbw, 6)
                + "  " + CFormat.padLeft(wrong, 6);
    }

    /** The row without -I's columns. */
    static String formatRow(ResultRow row) {
        return formatRow(row, null);
    }

    /** "%12li  %12li  %8s  %6s  %6i" and then each placement, each followed by its i_* columns with -I 1. */
    static String formatRow(ResultRow row, RunSpec spec) {
        boolean perIter = spec != null && spec.devices().perIterTiming() != 0;
        return CFormat.padLeft(Long.toString(row.sizeBytes()), 12) + "  "
                + CFormat.padLeft(Long.toString(row.count()), 12) + "  "
                + CFormat.padLeft(row.type(), 8) + "  "
                + CFormat.padLeft(row.redop(), 6) + "  "
                + CFormat.padLeft(Integer.toString(row.root()), 6)
                + placement(Objects.requireNonNull(row.outOfPlace(), "outOfPlace"))
                + (perIter ? perIteration(row.samplesOutOfPlace()) : "")
                + placement(Objects.requireNonNull(row.inPlace(), "inPlace"))
                + (perIter ? perIteration(row.samplesInPlace()) : "");
    }

    /** util.cu's writePerIterReport: "  %7s  %7s  %7s  %7s" of min, max, p99 (us) and cv (%); blank without samples. */
    private static String perIteration(SampleStats s) {
        if (s == null || s.count() == 0) {
            // the columns stay where the header puts them
            return " ".repeat(4 * 9);
        }
        return "  " + CFormat.fit(s.minUs(), 7) + "  " + CFormat.fit(s.maxUs(), 7) + "  " + CFormat.fit(s.p99Us(), 7)
                + "  " + CFormat.fit(s.cvPercent(), 7);
    }

    /** "  %7s  %6s  %6s  %6g", or "    N/A" in the last column when the placement was not checked. */
    private static String placement(Measurement m) {
        String wrong = m.checked() ? CFormat.general(m.wrong(), 6) : "  N/A";
        return "  " + CFormat.fit(m.timeUs(), 7) + "  " + CFormat.fit(m.algbw(), 6) + "  "
                + CFormat.fit(m.busbw(), 6) + "  " + wrong;
    }

    private void footer(String collective) {
        long outOfBounds = 0;
        double busbwSum = 0;
        int placements = 0;
        for (ResultRow row : tableRows) {
            for (Measurement m : List.of(row.outOfPlace(), row.inPlace())) {
                outOfBounds += m.checked() ? m.wrongRanks() : 0;
                busbwSum += m.busbw();
                placements++;
            }
        }
        // nccl-tests divides by zero for an empty table and prints "-nan"; 0 says the same more kindly.
        double avgBusbw = placements == 0 ? 0 : busbwSum / placements;
        out.print("# " + CFormat.padRight("Out of bounds values", 20) + " : " + outOfBounds + " "
                + (outOfBounds != 0 ? "FAILED" : "OK") + "\n");
        out.print("# " + CFormat.padRight("Avg bus bandwidth", 20) + " : " + CFormat.general(avgBusbw) + " \n");
        out.print("#\n");
        out.print("# Collective test concluded: " + collective + "_perf\n");
        out.print("#\n");
        String footnote = iMinAboveTime(tableRows, run.spec());
        if (footnote != null) {
            note(footnote);
            out.print("#\n");
        }
        List<String> verdictLines = VerdictSummary.lines(tableRows);
        for (String line : verdictLines) {
            comment("Path: " + line);
        }
        if (!verdictLines.isEmpty()) {
            out.print("#\n");
        }
        // nccl-tests ends with writeErrors(), an empty line when NCCL reported no error.
        out.print("\n");
    }

    /**
     * A header note, wrapped at a space to lines no wider than the table's rows ({@value #WIDTH}), each continued on a
     * line of its own starting "#   ": notes of 400 and 700 characters were one terminal line each. The result's JSON
     * keeps each note whole.
     */
    private void note(String text) {
        comment(wrap(text, WIDTH - 2, "  "));
    }

    /** What a row of the table takes without -I and -S (119 characters), and so a note at most. */
    static final int WIDTH = 120;

    /** {@code text} with a line break and {@code indent} put at the last space before each {@code width}. */
    static String wrap(String text, int width, String indent) {
        StringBuilder out = new StringBuilder();
        int lineStart = 0;
        int lastSpace = -1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                lineStart = out.length() + 1;
                lastSpace = -1;
            } else if (c == ' ') {
                lastSpace = out.length();
            }
            out.append(c);
            if (out.length() - lineStart > width && lastSpace > lineStart) {
                out.replace(lastSpace, lastSpace + 1, "\n" + indent);
                lineStart = lastSpace + 1;
                lastSpace = -1;
            }
        }
        return out.toString();
    }

    /**
     * -I 1: why i_min can be above the time column, said under a table where it is. Not a fault, and nccl-tests' rule
     * too: the time is each rank's whole loop over -n, combined over ranks by -a (the mean by default); each i_*
     * iteration is the slowest rank's (ReduceProcessMaxIterTimes), and the ranks take turns being slowest. Null when
     * no row has it, and under -C (the column is then the host's time to issue the calls).
     */
    static String iMinAboveTime(List<ResultRow> rows, RunSpec spec) {
        if (spec == null || spec.devices().perIterTiming() == 0 || spec.ncclTests().flags().reportCputime() != 0) {
            return null;
        }
        long above = rows.stream().filter(r -> above(r.outOfPlace(), r.samplesOutOfPlace())
                || above(r.inPlace(), r.samplesInPlace())).count();
        if (above == 0) {
            return null;
        }
        String[] combined = {"rank 0's", "the ranks' mean", "the ranks' least", "the ranks' greatest"};
        return "i_min is above time in " + above + " of " + rows.size() + " rows, as it can be in nccl-tests: time is each"
                + " rank's whole loop over -n, then " + combined[Math.max(0, Math.min(3, spec.timing().average()))] + " (-a "
                + spec.timing().average() + "); each i_* iteration is the slowest rank's, and the ranks take turns being slowest"
                + " (one that starts a call late waits least)";
    }

    private static boolean above(Measurement m, SampleStats s) {
        return m != null && s != null && s.count() > 0 && s.minUs() > m.timeUs();
    }

    /** Our own text as comment lines: one "# " line per line of text, so no parser ever sees it as a row. */
    private void comment(String text) {
        for (String line : text.split("\\R", -1)) {
            out.print(line.isEmpty() ? "#\n" : "# " + line + "\n");
        }
    }
}
