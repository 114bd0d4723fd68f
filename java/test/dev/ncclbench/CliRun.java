package dev.ncclbench;

import dev.ncclbench.cli.Main;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/** One ncclbench command run in this JVM, as the tests that drive the CLI see it: exit code, stdout, stderr. */
public record CliRun(int code, String out, String err) {

    public static CliRun cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new CliRun(code, out.toString(), err.toString());
    }

    public static CliRun cli(List<String> args) {
        return cli(args.toArray(String[]::new));
    }

    /** The table with each header note whole again: the table wraps a long note onto lines starting "#   ". */
    public static String unwrapped(String table) {
        return table.replace("\n#   ", " ");
    }
}
