package dev.ncclbench.cli;

import dev.ncclbench.output.AtomicFile;
import dev.ncclbench.output.Verdicts;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The outputs of a verdict (gate's or preflight's, {@link Verdicts}), shared by both commands: --json as every
 * command takes it ({@link JsonOutput}), and files that CI writes on every run, each replaced.
 */
final class GateOutputOptions {
    @Mixin
    JsonOutput json = new JsonOutput();

    @Option(names = "--junit", paramLabel = "FILE", description = "JUnit XML, one test case per collective and size")
    Path junit;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Markdown summary (fits a CI job summary)")
    Path markdown;

    @Option(names = "--prometheus", paramLabel = "FILE", description = "node-exporter textfile (busbw per size, verdict, timestamp)")
    Path prometheus;

    /** --json -: the JSON is standard output's, and the text goes elsewhere (preflight: stderr) or nowhere (gate). */
    boolean jsonOnStdout() {
        return json.onStdout();
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
        files.put("--junit", junit);
        files.put("--markdown", markdown);
        files.put("--prometheus", prometheus);
        json.check(inputs, files);
    }

    /** The report as asked: JSON or its text on {@code out}, and each file given. */
    void write(Verdicts r, PrintWriter out) {
        if (!json.onStdout()) {
            r.text(out);
        }
        json.write(r::json, out);
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
