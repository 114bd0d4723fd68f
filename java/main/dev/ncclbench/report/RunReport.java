package dev.ncclbench.report;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.gate.GateJudge;
import dev.ncclbench.gate.GateOptions;
import dev.ncclbench.output.AtomicFile;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultInput;
import dev.ncclbench.diagnosis.RouteInputs;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * The report of runs as `ncclbench report`, `sweep --html` and `preflight --html` write it: the last run judged
 * against its baseline, the plots and the table, written as HTML, PNG and SVG.
 */
public final class RunReport {
    private RunReport() {
    }

    /** The report's data and the gate decision on the last run. */
    public record Judged(ReportData data, GateReport gate) {
    }

    /** Judges the last of {@code runs} (against {@code baselineName}, or the matching one) and assembles the report. */
    public static Judged assemble(List<ReportData.Run> runs, GateJudge judge, String baselineName) {
        ReportData.Run last = runs.get(runs.size() - 1);
        GateReport gate = judge.judge(last.file(), last.doc(), baselineName);
        RouteInputs path = judge.path();
        ReportData data = ReportData.of(runs, judge.baselineOf(gate), path.fabric(), path.socketFloor(),
                judge.options().latencyBelow(), gate, "ncclbench " + last.doc().backend() + " "
                        + String.join(",", collectives(last.doc())));
        return new Judged(data, gate);
    }

    /**
     * sweep --html: the report of one run (an interrupted one too), judged against its matching baseline if any. A
     * run that cannot be read or judged is one line on err; a page that cannot be written is the command's error
     * (exit 2 naming the file): a report asked for and lost is never exit 0.
     *
     * @param thisHost this node's name (launch/HostName.node with the command line's environment): a run made here
     *                 gets its NIC rates in the fingerprint
     */
    public static void htmlFor(Path json, Path html, String fabric, Path catalog, String socketFloor, String thisHost,
                               PrintWriter err) {
        htmlFor(json, html, new GateJudge(null,
                GateOptions.defaults(), fabric, catalog, socketFloor, java.util.Set.of(), thisHost), err);
    }

    /** As {@link #htmlFor(Path, Path, String, Path, String, String, PrintWriter)}, with the gate's settings given. */
    public static void htmlFor(Path json, Path html, GateJudge judge, PrintWriter err) {
        Judged r;
        try {
            ResultDocument doc = ResultInput.read(json);
            r = assemble(List.of(new ReportData.Run(label(json), json.toString(), doc)), judge.allowingPartial(), null);
        } catch (NcclbenchException | java.io.UncheckedIOException e) {
            err.println("ncclbench: no HTML report: " + e.getMessage());
            return;
        }
        write(r.data(), html, null, null);
        err.println("ncclbench: report in " + html);
    }

    /** Writes each file asked for (null: not asked). */
    public static void write(ReportData data, Path html, Path png, Path svg) {
        if (html != null) {
            AtomicFile.writeOutput(html, HtmlReport.render(data));
        }
        if (svg != null) {
            AtomicFile.writeOutput(svg, ReportImages.svg(data));
        }
        if (png != null) {
            AtomicFile.writeOutput(png, ReportImages.png(data));
        }
    }

    /** The run folder's name for result.json, else the file name. */
    public static String label(Path p) {
        Path f = p.getFileName();
        if (f != null && f.toString().equals("result.json") && p.toAbsolutePath().getParent() != null) {
            return p.toAbsolutePath().getParent().getFileName().toString();
        }
        return f == null ? p.toString() : f.toString().replaceFirst("\\.json$", "");
    }

    private static List<String> collectives(ResultDocument d) {
        return d.spec() == null || d.spec().collectives() == null ? List.of() : d.spec().collectives();
    }
}
