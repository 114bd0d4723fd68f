package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;
import dev.ncclbench.env.Host;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.util.Arrays;

/** Entry point: runs the root command and turns every failure into one line and an exit code. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        // a reader that goes away (`| head`) ends the output, not the command: StandardOutput
        System.exit(run(args, new PrintWriter(StandardOutput.of(), true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs a command line with injected writers on this process's host: the one place that reads the process's
     * environment; every command gets the {@link Host} built here. Returns the exit code.
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, out, err, Host.of(System.getenv()));
    }

    /** The same on the host given: a test's own variables, never the JVM's. */
    public static int run(String[] args, PrintWriter out, PrintWriter err, Host host) {
        CommandLine cl = new CommandLine(new RootCommand(host));
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // wide enough that the exit-code table and the examples print one line each
        cl.setUsageHelpWidth(120);
        withExitCodes(cl);
        // preflight --sweep-arg=-d: its value is a sweep flag that preflight also has (the same SweepOptions)
        PreflightCommand.acceptFlagsAsSweepArgs(cl.getSubcommands().get("preflight"));
        cl.setParameterExceptionHandler((ex, a) -> {
            // one line: what is wrong, and where the help is
            err.println("ncclbench: " + ex.getMessage() + NcclTestsFlags.unknownNote(ex) + JsonOutput.missingNote(ex)
                    + " (see '"
                    + helpCommand(ex.getCommandLine()) + "')");
            return ExitCode.USAGE.code;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof NcclbenchException ne) {
                err.println("ncclbench: " + ne.getMessage());
                return ne.exitCode().code;
            }
            err.println("ncclbench: internal error: " + ex);
            if (host.debug()) {
                ex.printStackTrace(err);
            } else {
                err.println("(set NCCLBENCH_DEBUG=1 for the stack trace)");
            }
            return ExitCode.INTERNAL.code;
        });
        int code = cl.execute(args);
        out.flush();
        // a PrintWriter keeps its write errors to itself: `gate --json > /dev/full` must not end 0 with nothing written
        // (a closed pipe is no error: StandardOutput drops the rest)
        if (out.checkError() && code == ExitCode.OK.code) {
            err.println("ncclbench: cannot write to standard output (is the disk full?): the output is incomplete");
            code = ExitCode.INTERNAL.code;
        }
        err.flush();
        return code;
    }

    /**
     * Every command's --help ends with its examples, after its own exit codes in picocli's exit-code list (one
     * list per help: {@link ExitCodes}).
     */
    static void withExitCodes(CommandLine cl) {
        String[] footer = cl.getCommandSpec().usageMessage().footer();
        String[] withExamples = Arrays.copyOf(footer, footer.length + 1);
        withExamples[footer.length] = Examples.footer(qualifiedName(cl));
        cl.getCommandSpec().usageMessage().footer(withExamples)
                .exitCodeListHeading("%nExit codes:%n")
                .exitCodeList(ExitCodes.forCommand(qualifiedName(cl)));
        cl.getSubcommands().values().forEach(Main::withExitCodes);
    }

    /** "sweep", "baseline record": the command's words after ncclbench ("ncclbench" for the root). */
    static String qualifiedName(CommandLine cl) {
        CommandLine parent = cl.getParent();
        return parent == null || parent.getParent() == null ? cl.getCommandName()
                : qualifiedName(parent) + " " + cl.getCommandName();
    }

    /**
     * "ncclbench baseline record --help": the help of the command the user typed, its parents' words included (a
     * subcommand's own name alone, "ncclbench record --help", is a command that does not exist).
     */
    static String helpCommand(CommandLine cl) {
        return cl.getParent() == null ? "ncclbench --help" : "ncclbench " + qualifiedName(cl) + " --help";
    }
}
