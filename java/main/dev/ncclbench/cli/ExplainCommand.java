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
import java.util.List;
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

    @Option(names = "--json", description = "Print the whole structure (summary, diagnosis, evidence) as JSON")
    boolean json;

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
        if (json) {
            out.println(r.json());
        } else {
            r.write(out);
        }
        out.flush();
        return ExitCode.OK.code;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
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
            if (json) {
                out.println(runs.get().json(failOn));
            } else {
                runs.get().write(out, failOn);
            }
            out.flush();
            return runs.get().exitCode(failOn);
        }
        Explanation x = Explanation.of(inputs, stdin, rules.ignored());
        x.skipped().forEach(s -> spec.commandLine().getErr().println("explain: skipped " + s));
        if (json) {
            out.println(x.json());
        } else {
            x.write(out);
        }
        out.flush();
        return x.exitCode(failOn);
    }
}
