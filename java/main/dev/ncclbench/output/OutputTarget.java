package dev.ncclbench.output;

import dev.ncclbench.NcclbenchException;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
        check(flag, file, false);
    }

    /**
     * As {@link #check} for a file a sweep writes its rows to (--json, -J): the messages name --out, which makes
     * folders, and the journal written beside the result.
     */
    public static void checkRunFile(String flag, Path file) {
        check(flag, file, true);
    }

    private static void check(String flag, Path file, boolean runFile) {
        if (file == null) {
            return;
        }
        if (file.toString().isBlank()) {
            throw NcclbenchException.usage(flag + " needs a file name, got an empty one");
        }
        boolean result = runFile && flag.equals(RESULT_FLAG);
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
                    + " first" + (runFile ? " (ncclbench creates folders only under --out)" : ""));
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

    /**
     * An existing file that is not JSON is never replaced by a JSON document: `explain --json job.log`, typed when
     * --json was a switch, names the log as the file to write. An empty file, or one whose first non-blank byte is
     * '{' or '[', is JSON (or nothing yet); anything else, or a file that cannot be read, is refused (exit 2).
     *
     * @param hint what the flag takes, for the end of the message
     */
    public static void refuseNotJson(String flag, Path file, String hint) {
        if (file == null || !Files.isRegularFile(file) || looksLikeJson(file)) {
            return;
        }
        throw NcclbenchException.usage(flag + " " + file + ": " + file + " exists and is not a JSON file; " + hint);
    }

    private static boolean looksLikeJson(Path file) {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            for (int b = in.read(); b != -1; b = in.read()) {
                if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                    return b == '{' || b == '[';
                }
            }
            return true; // empty, or blanks only: nothing to lose
        } catch (IOException e) {
            return false; // cannot tell what it holds: never replace it
        }
    }

    /** A sweep's result file: the messages name --out, which makes folders, and the journal written beside it. */
    private static final String RESULT_FLAG = "--json";

    /**
     * No output is one of the command's inputs, nor another output: `gate RUN.json --json RUN.json` would replace the
     * run with its verdict, and `--junit x --markdown x` keep one of the two. Exit 2 naming both; links are followed.
     *
     * @param outputs each output flag as the user wrote it to its file (null: not given)
     * @param inputs  each input, in words ("the run's result"), to its file (null: none)
     */
    public static void refuseOverlap(Map<String, Path> outputs, Map<String, Path> inputs) {
        List<Map.Entry<String, Path>> seen = new ArrayList<>();
        for (Map.Entry<String, Path> o : outputs.entrySet()) {
            if (o.getValue() == null) {
                continue;
            }
            for (Map.Entry<String, Path> i : inputs.entrySet()) {
                if (i.getValue() != null && same(o.getValue(), i.getValue())) {
                    throw NcclbenchException.usage(o.getKey() + " " + o.getValue() + " is " + i.getKey() + ", which"
                            + " this command reads: name another file (an output never replaces an input)");
                }
            }
            for (Map.Entry<String, Path> s : seen) {
                if (same(o.getValue(), s.getValue())) {
                    throw NcclbenchException.usage(o.getKey() + " and " + s.getKey() + " name the same file, "
                            + o.getValue() + ": give each output its own");
                }
            }
            seen.add(o);
        }
    }

    private static boolean same(Path a, Path b) {
        if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) {
            return true;
        }
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false; // cannot tell: the check at the write names what goes wrong
        }
    }

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
