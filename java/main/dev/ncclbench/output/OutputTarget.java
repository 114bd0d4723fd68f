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
        if (Files.isDirectory(file)) {
            throw NcclbenchException.usage(flag + " " + file + " is a folder; name a file in it (e.g. " + flag + " "
                    + file.resolve(suggestedName(flag)) + ")");
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
                    + " first");
        }
        // the file is written beside itself and renamed over: the folder must be writable even when the file is
        if (!Files.isWritable(parent)) {
            throw NcclbenchException.usage(flag + " " + file + ": cannot write in " + parent);
        }
        if (Files.exists(file) && !Files.isWritable(file)) {
            throw NcclbenchException.usage(flag + " " + file + " exists and cannot be written");
        }
    }

    /**
     * {@link #check}, and an existing file is refused unless {@code force}: a result, a baseline or a journal of
     * an earlier run is never replaced by accident.
     */
    public static void checkNew(String flag, Path file, boolean force, String forceFlag) {
        check(flag, file);
        if (file != null && !force && Files.exists(file)) {
            throw NcclbenchException.usage(flag + " " + file + " already exists (an earlier run's file); choose"
                    + " another name, or " + forceFlag + " to replace it");
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
