package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.choices.CompareReport;
import dev.ncclbench.diagnosis.Explanation;
import dev.ncclbench.diagnosis.RunsExplanation;
import dev.ncclbench.finding.FailOn;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.concurrent.Callable;

/** `ncclbench explain`: reads NCCL's debug log and says which path the bytes took, why, and what to change. */
@Command(name = "explain", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Read NCCL's debug output (NCCL_DEBUG=INFO; files, a directory of NCCL_DEBUG_FILE files,"
                + " or - for stdin) and say which path the bytes took, how sure, why, and what to change. A folder of"
                + " run folders (results/runs/) gives one verdict per run and one line for all; the exit code is the"
                + " worst run's.")
public final class ExplainCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "FILE|DIR|-", description = "NCCL log files, directories of them, or -")
    List<String> inputs;

    @Option(names = "--compare", arity = "2", paramLabel = "RUN", description = "Compare what NCCL decided in two"
            + " runs (BEFORE AFTER: each a log file, a folder of logs or a run folder): the changes, most consequential"
            + " first, each with what it does to the bytes, then what stayed the same")
    List<String> compare;

    /** The whole structure (summary, diagnosis, evidence); never one of the logs read. */
    @Mixin
    JsonOutput json = new JsonOutput();

    @Mixin
    RuleFilter rules = new RuleFilter();

    @Option(names = "--fail-on", paramLabel = "LEVEL", converter = Choices.FailOnChoice.class,
            completionCandidates = Choices.FailOnNames.class, description = "Also exit 6 when a finding of this"
            + " severity or worse remains, even on a healthy path: ${COMPLETION-CANDIDATES}")
    FailOn failOn;

    @Option(names = "--stdin", hidden = true)
    InputStream stdin = System.in;

    /** --compare BEFORE AFTER: one library call, printed as text or JSON. */
    private int compare(PrintWriter out) {
        if (inputs != null && !inputs.isEmpty()) {
            throw NcclbenchException.usage("explain --compare takes its two runs only, not also " + inputs.get(0));
        }
        if (failOn != null || !rules.ignored().isEmpty()) {
            throw NcclbenchException.usage("--fail-on and --ignore judge one log's findings; --compare lists what NCCL"
                    + " decided differently and judges nothing");
        }
        if (compare.size() != 2) {
            throw NcclbenchException.usage("--compare takes one BEFORE and one AFTER, given once; got " + compare.size()
                    + " runs");
        }
        for (String in : compare) {
            if (in.equals("-") || !Files.exists(Path.of(in))) {
                throw NcclbenchException.usage(in + ": no such file or directory (--compare takes two log files,"
                        + " folders of logs or run folders)");
            }
        }
        CompareReport r = CompareReport.of(Path.of(compare.get(0)), Path.of(compare.get(1)));
        r.skipped().forEach(s -> spec.commandLine().getErr().println("explain: skipped " + s));
        print(out, r::write, r::json);
        return ExitCode.OK.code;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        checkJson();
        if (compare != null) {
            return compare(out);
        }
        if (inputs == null || inputs.isEmpty()) {
            throw NcclbenchException.usage("explain needs a log file, a folder of logs or - (or --compare BEFORE"
                    + " AFTER)");
        }
        var runs = RunsExplanation.of(inputs, rules.ignored());
        if (runs.isPresent()) {
            // a folder of run folders: one verdict per run, never one verdict of every run's logs read as one job
            runs.get().skipped().forEach(s -> spec.commandLine().getErr().println("explain: skipped " + s));
            print(out, w -> runs.get().write(w, failOn), () -> runs.get().json(failOn));
            return runs.get().exitCode(failOn);
        }
        Explanation x = Explanation.of(inputs, stdin, rules.ignored());
        x.skipped().forEach(s -> spec.commandLine().getErr().println("explain: skipped " + s));
        print(out, x::write, x::json);
        return x.exitCode(failOn);
    }

    /** --json names no log read (`explain --json job.log`, typed when --json was a switch, must not replace it). */
    private void checkJson() {
        Map<String, Path> read = new LinkedHashMap<>();
        for (List<String> files : Arrays.asList(inputs, compare)) {
            for (int i = 0; files != null && i < files.size(); i++) {
                if (!files.get(i).equals("-")) {
                    read.put("the log " + files.get(i), Path.of(files.get(i)));
                }
            }
        }
        json.check(read, Map.of());
    }

    /** The text unless the JSON is standard output's, then the JSON where --json says. */
    private void print(PrintWriter out, Consumer<PrintWriter> text, Supplier<String> document) {
        if (!json.onStdout()) {
            text.accept(out);
            out.flush();
        }
        json.write(document, out);
    }
}
