package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** `ncclbench recover FILE.partial`: the journal of a run that was killed (SIGKILL, a node crash) made a result. */
@Command(name = "recover", mixinStandardHelpOptions = true,
        description = "Turn the journal a killed run left (result.json.partial) into its result file, status incomplete.")
public final class RecoverCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE.partial", description = "The journal, <result>.json.partial")
    Path journal;

    @picocli.CommandLine.Option(names = "--force", description = "replace the result file when it holds another run"
            + " (without it both files are kept and recover exits 2)")
    boolean force;

    @Override
    public Integer call() {
        String unrecoverable = ResultFiles.unrecoverable(journal);
        if (unrecoverable != null) {
            throw NcclbenchException.usage(unrecoverable);
        }
        try {
            ResultFiles.Recovered r = ResultFiles.recover(journal, force);
            ResultDocument doc = r.doc();
            spec.commandLine().getOut().println(r.alreadyThere()
                    ? "ncclbench: " + r.file() + " already holds this run's " + doc.rows().size() + " rows (status "
                    + doc.status() + "); its leftover journal " + journal + " is deleted"
                    : "ncclbench: " + doc.rows().size() + " rows recovered into " + r.file() + " (status "
                    + doc.status() + ")");
            spec.commandLine().getOut().flush();
            return 0;
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot recover " + journal + ": " + e.getMessage());
        }
    }
}
