package dev.ncclbench.cli;

import dev.ncclbench.gate.GateJson;
import dev.ncclbench.gate.GateJunit;
import dev.ncclbench.gate.GateMarkdown;
import dev.ncclbench.output.AtomicFile;
import dev.ncclbench.output.OutputTarget;
import dev.ncclbench.gate.GatePrometheus;
import dev.ncclbench.gate.GateReport;
import dev.ncclbench.gate.GateText;
import dev.ncclbench.preflight.PreflightJson;
import dev.ncclbench.preflight.PreflightJunit;
import dev.ncclbench.preflight.PreflightMarkdown;
import dev.ncclbench.preflight.PreflightReport;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;

/** The gate's outputs, shared by gate and preflight. */
final class GateOutputOptions {
    @Option(names = "--json", description = "Print the decision as JSON instead of the table")
    boolean json;

    @Option(names = "--junit", paramLabel = "FILE", description = "JUnit XML, one test case per collective and size")
    Path junit;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Markdown summary (fits a CI job summary)")
    Path markdown;

    @Option(names = "--prometheus", paramLabel = "FILE", description = "node-exporter textfile (busbw per size, verdict, timestamp)")
    Path prometheus;

    /** Every output file, before the gate reads anything (a lost --junit is never exit 0). */
    void check() {
        OutputTarget.check("--junit", junit);
        OutputTarget.check("--markdown", markdown);
        OutputTarget.check("--prometheus", prometheus);
    }

    void write(GateReport r, PrintWriter out) {
        if (json) {
            out.print(GateJson.render(r));
            out.flush();
        } else {
            GateText.write(r, out);
        }
        if (junit != null) {
            AtomicFile.writeOutput(junit, GateJunit.render(r));
        }
        if (markdown != null) {
            AtomicFile.writeOutput(markdown, GateMarkdown.render(r));
        }
        if (prometheus != null) {
            AtomicFile.writeOutput(prometheus, GatePrometheus.render(r));
        }
    }

    /**
     * preflight's outputs: its JSON (doctor, the sweep, the gate) instead of the gate's, JUnit and Markdown with
     * doctor's findings beside the gate's, Prometheus from the gate when it ran. The gate's table went out already.
     */
    void write(PreflightReport r, PrintWriter out) {
        if (json) {
            out.print(PreflightJson.render(r));
            out.flush();
        }
        if (junit != null) {
            AtomicFile.writeOutput(junit, PreflightJunit.render(r));
        }
        if (markdown != null) {
            AtomicFile.writeOutput(markdown, PreflightMarkdown.render(r));
        }
        if (prometheus != null && r.gate() != null) {
            AtomicFile.writeOutput(prometheus, GatePrometheus.render(r.gate()));
        }
    }
}
