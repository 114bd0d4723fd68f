package dev.ncclbench.cli;

import dev.ncclbench.output.AtomicFile;
import dev.ncclbench.output.OutputTarget;
import dev.ncclbench.output.Verdicts;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The outputs of a verdict (gate's or preflight's, {@link Verdicts}), shared by both commands. Every file flag takes
 * FILE as sweep's and fleet's --json do, and an existing file is replaced, as CI writes these files on every run;
 * --json - prints the JSON on standard output instead of the text.
 */
final class GateOutputOptions {
    /** --json's value that means standard output. */
    static final String STDOUT = "-";

    @Option(names = "--json", paramLabel = "FILE", description = "the decision as JSON in FILE; '-' prints it on"
            + " standard output instead of the text")
    Path json;

    @Option(names = "--junit", paramLabel = "FILE", description = "JUnit XML, one test case per collective and size")
    Path junit;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Markdown summary (fits a CI job summary)")
    Path markdown;

    @Option(names = "--prometheus", paramLabel = "FILE", description = "node-exporter textfile (busbw per size, verdict, timestamp)")
    Path prometheus;

    /** --json -: the JSON is standard output's, and the text goes elsewhere (preflight: stderr) or nowhere (gate). */
    boolean jsonOnStdout() {
        return json != null && json.toString().equals(STDOUT);
    }

    private Path jsonFile() {
        return jsonOnStdout() ? null : json;
    }

    /**
     * Every output file, before the gate reads anything (a lost --junit is never exit 0); none may be one of the
     * command's inputs or another output.
     *
     * @param inputs       each input, in words ("the run's result"), to its file (null: none)
     * @param otherOutputs the command's other output flags (preflight's --html), checked the same way
     */
    void check(Map<String, Path> inputs, Map<String, Path> otherOutputs) {
        Map<String, Path> files = new LinkedHashMap<>(otherOutputs);
        files.put("--json", jsonFile());
        files.put("--junit", junit);
        files.put("--markdown", markdown);
        files.put("--prometheus", prometheus);
        files.forEach(OutputTarget::check);
        OutputTarget.refuseOverlap(files, inputs);
    }

    /** The report as asked: JSON or its text on {@code out}, and each file given. */
    void write(Verdicts r, PrintWriter out) {
        if (jsonOnStdout()) {
            out.print(r.json());
            out.flush();
        } else {
            r.text(out);
        }
        if (jsonFile() != null) {
            AtomicFile.writeOutput(jsonFile(), r.json());
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
