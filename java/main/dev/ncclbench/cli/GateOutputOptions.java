package dev.ncclbench.cli;

import dev.ncclbench.output.AtomicFile;
import dev.ncclbench.output.OutputTarget;
import dev.ncclbench.output.Verdicts;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;

/** The outputs of a verdict (gate's or preflight's, {@link Verdicts}), shared by both commands. */
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

    /** The report as asked: JSON or its text on {@code out}, and each file given. */
    void write(Verdicts r, PrintWriter out) {
        if (json) {
            out.print(r.json());
            out.flush();
        } else {
            r.text(out);
        }
        if (junit != null) {
            AtomicFile.writeOutput(junit, r.junit());
        }
        if (markdown != null) {
            AtomicFile.writeOutput(markdown, r.markdown());
        }
        String prom = prometheus == null ? null : r.prometheus();
        if (prom != null) {
            AtomicFile.writeOutput(prometheus, prom);
        }
    }
}
