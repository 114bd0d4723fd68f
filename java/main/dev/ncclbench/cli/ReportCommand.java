package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.report.ReportData;
import dev.ncclbench.report.RunReport;
import dev.ncclbench.results.ResultInput;
import dev.ncclbench.output.OutputTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** `ncclbench report`: busbw and latency plots of runs (and their baseline), as HTML, PNG and SVG. */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Plot busbw against size (log2) for one or more runs and their baseline, with the line rate,"
                + " the socket floor and the gate's regressions marked; write one self-contained HTML file, a PNG"
                + " and an SVG.")
public final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "RUN.json", arity = "1..*", description = "result JSON files or run folders; the last is judged")
    List<Path> runs;

    @Option(names = "--baseline", paramLabel = "NAME|FILE", description = "overlay and judge against this baseline (default: the matching one in --baseline-dir, if any)")
    String baseline;

    @Option(names = "--html", paramLabel = "FILE", description = "one self-contained HTML file: plots, table, verdict, findings, what changed")
    Path html;

    @Option(names = "--png", paramLabel = "FILE", description = "busbw plot, with the latency plot under it")
    Path png;

    @Option(names = "--svg", paramLabel = "FILE", description = "busbw plot as SVG")
    Path svg;

    @Mixin
    GateCommand.GateSettings settings;

    @Mixin
    HostMixin host = new HostMixin();

    @Override
    public Integer call() {
        if (html == null && png == null && svg == null) {
            throw NcclbenchException.usage("report needs at least one of --html, --png, --svg");
        }
        OutputTarget.check("--html", html);
        OutputTarget.check("--png", png);
        OutputTarget.check("--svg", svg);
        List<ReportData.Run> docs = new ArrayList<>();
        for (Path p : runs) {
            docs.add(new ReportData.Run(RunReport.label(p), p.toString(), ResultInput.read(p)));
        }
        RunReport.Judged r = RunReport.assemble(docs, settings.judge(host.get()), baseline);
        RunReport.write(r.data(), html, png, svg);
        PrintWriter out = spec.commandLine().getOut();
        out.println(r.gate().verdictLine());
        for (Path p : new Path[]{html, png, svg}) {
            if (p != null) {
                out.println("written to " + p);
            }
        }
        return 0;
    }
}
