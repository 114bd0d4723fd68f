package dev.ncclbench.output;

import dev.ncclbench.NcclbenchException;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file an option names (--json, --html, --junit, --save ...), checked before any work: one sentence and exit 2,
 * so that no command measures for a minute and then loses its output, and none replaces a device node with a
 * regular file (an atomic rename onto /dev/full does exactly that). Every command checks its output flags here;
 * {@link AtomicFile#writeOutput} checks again at the write (the path may have changed meanwhile) and reports a
 * failed write (ENOSPC, a failed fsync or close) the same way.
 */
public final class OutputTarget {
    private OutputTarget() {
    }

    /**
     * A regular file or nothing yet, in a folder that exists and can be written; never a folder, a device, a pipe
     * or a link to one. Folders are not created here (only under --out, by the commands that own a run folder).
     * The one check of every output flag, a sweep's --json and -J included (results/OutputPaths adds the journal).
     *
     * @param flag the option as the user wrote it ("--junit"), for the message
     * @param file null when the option was not given
     */
    public static void check(String flag, Path file) {
        if (file == null) {
            return;
        }
        if (file.toString().isBlank()) {
            throw NcclbenchException.usage(flag + " needs a file name, got an empty one");
        }
        boolean result = flag.equals(RESULT_FLAG);
        if (Files.isDirectory(file)) {
            throw NcclbenchException.usage(flag + " " + file + " is a folder; name a file in it (e.g. " + flag + " "
                    + file.resolve(suggestedName(flag)) + ")" + (result ? " or use --out " + file : ""));
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw NcclbenchException.usage(flag + " " + file + " exists and is not a regular file (a device, a pipe"
                    + " or a link to one); name a regular file");
        }
        if (!Files.exists(file) && Files.isSymbolicLink(file)) {
            throw NcclbenchException.usage(flag + " " + file + " is a link to nothing; name a regular file");
        }
        Path parent = file.toAbsolutePath().normalize().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw NcclbenchException.usage(flag + " " + file + ": the folder " + parent + " does not exist; create it"
                    + " first" + (result || flag.equals("-J") ? " (ncclbench creates folders only under --out)" : ""));
        }
        // the file is written beside itself and renamed over: the folder must be writable even when the file is
        if (!Files.isWritable(parent)) {
            throw NcclbenchException.usage(flag + " " + file + ": cannot write in " + parent
                    + (result ? " (the result and its journal go there)" : ""));
        }
        if (Files.exists(file) && !Files.isWritable(file)) {
            throw NcclbenchException.usage(flag + " " + file + " exists and cannot be written");
        }
    }

    /** A sweep's result file: the messages name --out, which makes folders, and the journal written beside it. */
    private static final String RESULT_FLAG = "--json";

    /**
     * An existing regular file is refused unless {@code force}: an earlier run's result is never replaced by accident.
     * Apart from {@link #check} because every process of a job may ask it (a file there is there for every rank),
     * while only the writer's (rank 0's) folder must exist and be writable; a folder or a device is check's to name.
     *
     * @param forceFlag the option that allows it ("--force"), for the message
     */
    public static void refuseExisting(String flag, Path file, boolean force, String forceFlag) {
        if (file != null && !force && Files.isRegularFile(file)) {
            throw NcclbenchException.usage(flag + " " + file + " already exists (an earlier run's "
                    + (flag.equals(RESULT_FLAG) ? "result" : "file") + "); choose another name, or " + forceFlag
                    + " to replace it");
        }
    }

    private static String suggestedName(String flag) {
        return switch (flag) {
            case "--junit" -> "junit.xml";
            case "--markdown" -> "summary.md";
            case "--prometheus" -> "ncclbench.prom";
            case "--html" -> "report.html";
            case "--png" -> "report.png";
            case "--svg" -> "report.svg";
            default -> "result.json";
        };
    }
}
