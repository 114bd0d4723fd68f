package dev.ncclbench.results;

import dev.ncclbench.NcclbenchException;
import dev.ncclbench.output.OutputTarget;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The places a run will write, checked before anything runs: exit 2 with one sentence, so that a sweep never
 * ends with "Is a directory", never replaces a device node, and never writes beside a path nobody named.
 * Folders are created only under --out.
 */
public final class OutputPaths {
    private OutputPaths() {
    }

    /** --json FILE: a regular file or nothing yet, in a folder that exists and can be written. */
    public static void checkJsonFile(Path json) {
        checkJsonFile(json, "--json");
    }

    /**
     * As {@link #checkJsonFile(Path)} for the file of {@code flag} (e.g. nccl-tests' -J): {@link OutputTarget#check},
     * and no journal beside it, which would be another run's.
     */
    public static void checkJsonFile(Path json, String flag) {
        OutputTarget.checkRunFile(flag, json);
        if (json == null) {
            return;
        }
        Path journal = ResultFiles.journalOf(json);
        if (Files.exists(journal, LinkOption.NOFOLLOW_LINKS)) {
            throw NcclbenchException.usage(flag + " " + journalTaken(json, journal));
        }
    }

    /** Another run holds this result file: its journal is there. */
    static String journalTaken(Path json, Path journal) {
        return json + " is taken: its journal " + journal + " exists (another run is writing it, or a killed run left"
                + " its rows there: ncclbench recover " + journal + ")";
    }

    /** --out DIR: a folder, or a path whose nearest existing ancestor is a folder that can be written. */
    public static void checkOutDir(Path out) {
        if (out == null || out.toString().isBlank()) {
            throw NcclbenchException.usage("--out needs a folder name, got an empty one");
        }
        Path p = out.toAbsolutePath().normalize();
        if (Files.exists(p) && !Files.isDirectory(p)) {
            throw NcclbenchException.usage("--out " + out + " exists and is not a folder");
        }
        Path existing = p;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing)) {
            throw NcclbenchException.usage("--out " + out + ": " + existing + " is not a folder");
        }
        if (!Files.isWritable(existing)) {
            throw NcclbenchException.usage("--out " + out + ": cannot create folders in " + existing);
        }
    }
}
