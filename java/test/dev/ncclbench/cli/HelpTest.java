package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One exit-code table: ExitCode's, printed by every --help and copied verbatim into README.md. */
class HelpTest {

    static List<String> commands() {
        List<String> names = new ArrayList<>();
        new CommandLine(new RootCommand()).getSubcommands().forEach((name, cl) -> {
            if (!cl.getCommandSpec().usageMessage().hidden()) {
                names.add(name);
            }
        });
        return names;
    }

    private static String help(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        assertEquals(0, code, String.join(" ", args) + ": " + err);
        return out.toString();
    }

    @Test
    void everyHelpEndsWithTheExitCodeTable() {
        String table = String.format(ExitCode.table());
        assertTrue(table.contains("  5  timeout / hang"), table);
        List<String> cmds = commands();
        assertTrue(cmds.contains("sweep") && cmds.contains("env") && cmds.contains("explain"), cmds.toString());
        assertTrue(help("--help").contains(table), "ncclbench --help");
        for (String c : cmds) {
            String h = help(c, "--help");
            assertTrue(h.contains(table), c + " --help lacks the exit-code table:\n" + h);
            assertEquals(1, h.split(java.util.regex.Pattern.quote(table), -1).length - 1, c + " --help prints the table once:\n" + h);
        }
    }

    @Test
    void readmeHoldsTheSameTable() throws IOException {
        Path readme = Path.of(System.getProperty("ncclbench.basedir", "."), "README.md");
        String text = Files.readString(readme);
        assertTrue(text.contains(ExitCode.markdown()), "README.md's exit-code table must read exactly:\n" + ExitCode.markdown());
    }
}
