package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.baseline.Baseline;
import dev.ncclbench.baseline.BaselineStore;
import dev.ncclbench.gate.GateOutputs;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.report.HtmlReport;
import dev.ncclbench.report.ReportData;
import dev.ncclbench.report.ReportImages;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.sweep.PathInputs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** `ncclbench report`: busbw and latency plots of runs (and their baseline), as HTML, PNG and SVG. */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Plot busbw against size (log2) for one or more runs and their baseline, with the line rate,"
                + " the socket floor and the gate's regressions marked; write one self-contained HTML file, a PNG"
                + " and an SVG.",
        footer = "%nExit codes: 0 written, 2 usage (bad file, no output asked).")
public final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "RUN.json", arity = "1..*", description = "result JSON files or run folders; the last is judged")
    List<Path> runs;

    @Option(names = "--baseline", paramLabel = "NAME|FILE", description = "overlay and judge against this baseline (default: the matching one in --dir, if any)")
    String baseline;

    @Option(names = "--html", paramLabel = "FILE", description = "one self-contained HTML file: plots, table, verdict, findings, what changed")
    Path html;

    @Option(names = "--png", paramLabel = "FILE", description = "busbw plot, with the latency plot under it")
    Path png;

    @Option(names = "--svg", paramLabel = "FILE", description = "busbw plot as SVG")
    Path svg;

    @Mixin
    GateCommand.GateSettings settings;

    @Override
    public Integer call() {
        if (html == null && png == null && svg == null) {
            throw NcclbenchException.usage("report needs at least one of --html, --png, --svg");
        }
        List<ReportData.Run> docs = new ArrayList<>();
        for (Path p : runs) {
            docs.add(new ReportData.Run(label(p), p.toString(), ResultInput.read(p)));
        }
        PrintWriter err = spec.commandLine().getErr();
        ReportData.Run last = docs.get(docs.size() - 1);
        GateReport gate = settings.judge(last.file(), last.doc(), baseline, err);
        Baseline b = gate.baselineFile() == null ? null : new BaselineStore(settings.dir).resolve(gate.baselineFile());
        PathInputs path = settings.path();
        ReportData data = ReportData.of(docs, b, path.fabric(), path.socketFloor(), settings.options().latencyBelow(),
                gate, "ncclbench " + last.doc().backend() + " " + String.join(",", collectives(last.doc())));
        write(data, html, png, svg);
        PrintWriter out = spec.commandLine().getOut();
        out.println(gate.verdictLine());
        for (Path p : new Path[]{html, png, svg}) {
            if (p != null) {
                out.println("written to " + p);
            }
        }
        return 0;
    }

    /** sweep --html: the report of one run, judged against its matching baseline if any; a failure is one line. */
    static void htmlFor(Path json, Path html, String fabric, Path catalog, String socketFloor, PrintWriter err) {
        try {
            ReportCommand r = new ReportCommand();
            r.settings = new GateCommand.GateSettings();
            r.settings.fabric = fabric;
            r.settings.catalog = catalog;
            r.settings.socketFloor = socketFloor;
            ResultDocument doc = ResultInput.read(json);
            GateReport gate = r.settings.judge(json.toString(), doc, null, err);
            PathInputs path = PathOptions.resolve(fabric, catalog, socketFloor);
            write(ReportData.of(List.of(new ReportData.Run(label(json), json.toString(), doc)), gate.baselineFile() == null
                    ? null : new BaselineStore(r.settings.dir).resolve(gate.baselineFile()), path.fabric(),
                    path.socketFloor(), r.settings.options().latencyBelow(), gate, "ncclbench " + doc.backend() + " "
                    + String.join(",", collectives(doc))), html, null, null);
            err.println("ncclbench: report in " + html);
        } catch (NcclbenchException | java.io.UncheckedIOException e) {
            err.println("ncclbench: no HTML report: " + e.getMessage());
        }
    }

    static void write(ReportData data, Path html, Path png, Path svg) {
        if (html != null) {
            GateOutputs.write(html, HtmlReport.render(data));
        }
        if (svg != null) {
            GateOutputs.write(svg, ReportImages.svg(data));
        }
        if (png != null) {
            try {
                Path parent = png.toAbsolutePath().getParent();
                Files.createDirectories(parent);
                Files.write(png, ReportImages.png(data));
            } catch (IOException e) {
                throw NcclbenchException.usage("cannot write " + png + ": " + e.getMessage());
            }
        }
    }

    /** The run folder's name for result.json, else the file name. */
    static String label(Path p) {
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
