package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.diagnosis.Diagnoser;
import dev.ncclbench.diagnosis.Diagnosis;
import dev.ncclbench.diagnosis.ExplainText;
import dev.ncclbench.diagnosis.rules.ExplainRules;
import dev.ncclbench.finding.FailOn;
import dev.ncclbench.nccllog.NcclLogEvidence;
import dev.ncclbench.nccllog.NcclLogReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;

/** `ncclbench explain`: reads NCCL's debug log and says which path the bytes took, why, and what to change. */
@Command(name = "explain", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Read NCCL's debug output (NCCL_DEBUG=INFO; files, a directory of NCCL_DEBUG_FILE files,"
                + " or - for stdin) and say which path the bytes took, how sure, why, and what to change.",
        footer = "%nExit codes: 0 healthy path for the topology, 2 usage error or no path evidence in the input,"
                + " 3 NCCL init failed, 4 NCCL failed after init, 6 degraded path (sockets or host-staged where"
                + " RDMA is present), or a finding at the --fail-on severity.")
public final class ExplainCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE|DIR|-", description = "NCCL log files, directories of them, or -")
    List<String> inputs;

    @Option(names = "--json", description = "Print the whole structure (summary, diagnosis, evidence) as JSON")
    boolean json;

    @Option(names = "--ignore", paramLabel = "ID", description = "Drop the findings of this rule (repeatable; see"
            + " `ncclbench rules`); they no longer count for the health or the exit code")
    List<String> ignore = List.of();

    @Option(names = "--fail-on", paramLabel = "warn|error", description = "Also exit 6 when a finding of this"
            + " severity or worse remains, even on a healthy path")
    String failOn;

    @Option(names = "--stdin", hidden = true)
    InputStream stdin = System.in;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        FailOn threshold = null;
        if (failOn != null) {
            try {
                threshold = FailOn.parse(failOn);
            } catch (IllegalArgumentException ex) {
                throw NcclbenchException.usage(ex.getMessage());
            }
        }
        Set<String> ignored = new LinkedHashSet<>();
        for (String id : ignore) {
            if (!ExplainRules.book().knows(id)) {
                throw NcclbenchException.usage("--ignore " + id + ": no such rule (`ncclbench rules` lists them)");
            }
            ignored.add(id);
        }
        NcclLogReader reader = new NcclLogReader();
        for (String in : inputs) {
            try {
                if (in.equals("-")) {
                    reader.read(stdin, "-");
                } else {
                    Path p = Path.of(in);
                    if (!Files.exists(p)) {
                        throw NcclbenchException.usage(in + ": no such file or directory");
                    }
                    reader.read(p);
                }
            } catch (IOException e) {
                throw NcclbenchException.usage(in + ": cannot read: " + e.getMessage());
            }
        }
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
