package dev.ncclbench.cli;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.results.ResultDocument;
import dev.ncclbench.results.ResultFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Files;
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

    @Override
    public Integer call() {
        if (!Files.isRegularFile(journal)) {
            throw NcclbenchException.usage(journal + " is not a file");
        }
        try {
            Path file = ResultFiles.recover(journal);
            ResultDocument doc = ResultFiles.read(file);
            spec.commandLine().getOut().println("ncclbench: " + doc.rows().size() + " rows recovered into " + file
                    + " (status " + doc.status() + ")");
            spec.commandLine().getOut().flush();
            return 0;
        } catch (IOException e) {
            throw NcclbenchException.usage("cannot recover " + journal + ": " + e.getMessage());
        }
    }
}
