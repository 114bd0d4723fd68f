package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.diagnosis.Diagnoser;
import dev.ncclbench.diagnosis.Diagnosis;
import dev.ncclbench.diagnosis.ExplainText;
import dev.ncclbench.finding.FailOn;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import dev.ncclbench.nccllog.NotAnNcclLogException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Set;
import java.util.List;
import java.util.concurrent.Callable;

/** `ncclbench explain`: reads NCCL's debug log and says which path the bytes took, why, and what to change. */
@Command(name = "explain", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Read NCCL's debug output (NCCL_DEBUG=INFO; files, a directory of NCCL_DEBUG_FILE files,"
                + " or - for stdin) and say which path the bytes took, how sure, why, and what to change.")
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
        dev.ncclbench.choices.CompareReport r;
        try {
            r = dev.ncclbench.choices.CompareReport.read(Path.of(compare.get(0)), Path.of(compare.get(1)));
        } catch (NotAnNcclLogException e) {
            throw NcclbenchException.usage(e.getMessage());
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot read " + compare + ": " + e.getMessage());
        }
        r.skipped().forEach(s -> spec.commandLine().getErr().println("explain: skipped " + s));
        if (json) {
            out.println(r.json());
        } else {
            r.write(out);
        }
        out.flush();
        return ExitCode.OK.code;
    }

    /** Reads the files given together, in parallel; one sentence and exit 2 for a file that is not a log. */
    private static void read(NcclLogReader reader, List<Path> files) {
        if (files.isEmpty()) {
            return;
        }
        try {
            reader.read(files);
        } catch (NotAnNcclLogException e) {
            throw NcclbenchException.usage(e.getMessage());
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot read " + (files.size() == 1 ? files.get(0) : "the logs") + ": "
                    + e.getMessage());
        }
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
        FailOn threshold = failOn;
        Set<String> ignored = rules.ignored();
        NcclLogReader reader = new NcclLogReader();
        List<Path> files = new ArrayList<>();
        for (String in : inputs) {
            if (in.equals("-")) {
                read(reader, files);
                files.clear();
                try {
                    reader.read(stdin, "-");
                } catch (NotAnNcclLogException e) {
                    throw NcclbenchException.usage(e.getMessage());
                } catch (IOException e) {
                    throw NcclbenchException.usage("stdin: cannot read: " + e.getMessage());
                }
            } else {
                Path p = Path.of(in);
                if (!Files.exists(p)) {
                    throw NcclbenchException.usage(in + ": no such file or directory");
                }
                files.add(p);
            }
        }
        read(reader, files);
        reader.skipped().forEach(s -> spec.commandLine().getErr().println("explain: skipped " + s));
        NcclLogEvidence e = reader.evidence();
        Diagnosis d = Diagnoser.diagnose(e, ignored);
        if (json) {
            out.println(ExplainText.json(e, d));
        } else {
            ExplainText.write(out, e, d);
        }
        out.flush();
        int code = d.health().exitCode.code;
        if (code == ExitCode.OK.code && threshold != null && threshold.fails(d.findings())) {
            return ExitCode.DEGRADED.code;
        }
        return code;
    }
}
