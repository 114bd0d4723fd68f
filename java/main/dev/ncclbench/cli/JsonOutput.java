package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.output.AtomicFile;
import dev.ncclbench.output.OutputTarget;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * --json FILE|-, the one output flag of every command that prints JSON: FILE is written whole ({@link AtomicFile}),
 * '-' is standard output, which then holds the JSON document alone (the text goes to standard error or nowhere, as
 * each command's help says). Before anything runs the file is checked ({@link OutputTarget}): never a folder or a
 * device, never one of the command's inputs, never an existing file that is not JSON (`explain --json job.log`,
 * typed when --json was a switch, names the log as the file to write).
 */
final class JsonOutput {
    static final String FLAG = "--json";
    /** The value that means standard output. */
    static final String STDOUT = "-";
    /** What --json takes, in the messages that name a wrong use. */
    static final String TAKES = FLAG + " takes FILE (the file to write), or '" + STDOUT + "' for standard output";

    @Option(names = FLAG, paramLabel = "FILE|-", description = "write the JSON document to FILE (an existing file is"
            + " replaced only when it holds JSON); '-' prints it on standard output instead of the text")
    String value;

    /** Whether --json was given. */
    boolean given() {
        return value != null;
    }

    /** --json -: standard output holds the JSON document and nothing else. */
    boolean onStdout() {
        return STDOUT.equals(value);
    }

    /** The file to write; null when --json is not given or is '-'. */
    Path file() {
        if (value == null || onStdout()) {
            return null;
        }
        if (value.startsWith("-")) {
            // `--json --save x` under picocli's options-as-values (preflight): the next flag, not a file name
            throw NcclbenchException.usage(FLAG + " " + value + ": " + TAKES + " (a name starting with '-' is taken"
                    + " for a flag: write ./" + value + ")");
        }
        return Path.of(value);
    }

    /**
     * The file, before anything is read or run: {@link OutputTarget#check}, not an existing file other than JSON,
     * and neither one of the inputs nor another output.
     *
     * @param inputs       each input, in words ("the log"), to its file (null: none)
     * @param otherOutputs the command's other output flags to their files, checked the same way
     */
    void check(Map<String, Path> inputs, Map<String, Path> otherOutputs) {
        Map<String, Path> files = new LinkedHashMap<>();
        files.put(FLAG, file());
        files.putAll(otherOutputs);
        files.forEach(OutputTarget::check);
        refuseNotJson();
        OutputTarget.refuseOverlap(files, inputs);
    }

    /** The check a command that writes the file itself asks (sweep's result, fleet's rank 0): an existing non-JSON file. */
    void refuseNotJson() {
        OutputTarget.refuseNotJson(FLAG, file(), TAKES);
    }

    /** The document: on {@code out} for '-', else into the file; nothing (not even made) when --json is not given. */
    void write(Supplier<String> json, PrintWriter out) {
        if (!given()) {
            return;
        }
        String text = json.get();
        String doc = text.endsWith("\n") ? text : text + "\n";
        if (onStdout()) {
            out.print(doc);
            out.flush();
        } else {
            AtomicFile.writeOutput(file(), doc);
        }
    }

    /** For a command that wrote its JSON into its run folder (sweep, fleet): the file's bytes on {@code out}. */
    static void print(Path written, PrintWriter out) {
        try {
            out.print(Files.readString(written));
            out.flush();
        } catch (IOException e) {
            throw new NcclbenchException(ExitCode.INTERNAL, "cannot read back " + written + " for standard output: "
                    + e.getMessage());
        }
    }

    /** picocli's "Missing required parameter for option '--json'" and what --json takes; "" for any other error. */
    static String missingNote(CommandLine.ParameterException ex) {
        return ex instanceof CommandLine.MissingParameterException m && m.getMissing() != null && m.getMissing().stream()
                .anyMatch(a -> a instanceof CommandLine.Model.OptionSpec o && FLAG.equals(o.longestName()))
                ? ": " + TAKES : "";
    }
}
