package dev.ncclbench.results;

import dev.ncclbench.NcclbenchException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reading a run's result JSON for baseline, gate and report: a bad file is one line and exit 2. */
public final class ResultInput {
    private ResultInput() {
    }

    /** The file {@link #read} reads: the path given, or the result.json of a run folder. */
    public static Path fileOf(Path given) {
        return Files.isDirectory(given) ? given.resolve("result.json") : given;
    }

    /** A result.json, or a run folder holding one. */
    public static ResultDocument read(Path file) {
        Path f = fileOf(file);
        if (!Files.isRegularFile(f)) {
            throw NcclbenchException.usage(file + " does not exist" + (Files.isDirectory(file)
                    ? " (the folder has no result.json)" : ""));
        }
        try {
            return ResultFiles.read(f);
        } catch (IOException | RuntimeException e) {
            String m = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            throw NcclbenchException.usage("cannot read " + f + ": " + m);
        }
    }
}
