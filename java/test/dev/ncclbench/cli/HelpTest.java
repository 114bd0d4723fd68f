package dev.ncclbench.cli;

import dev.ncclbench.ExitCode;
import dev.ncclbench.env.Host;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One exit-code table, ExitCode's: each --help lists the codes of its command once, README.md holds the table. */
class HelpTest {

    static List<String> commands() {
        List<String> names = new ArrayList<>();
        new CommandLine(new RootCommand(Host.of(Map.of()))).getSubcommands().forEach((name, cl) -> {
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

    /** help sweep named 9 of the 11 collectives: the list is the registry's, in sweep's and preflight's help alike. */
    @Test
    void theHelpNamesEveryCollectiveOfTheRegistry() {
        for (String cmd : List.of("sweep", "preflight")) {
            String h = help("help", cmd).replaceAll("\\s+", " ");
            String listed = String.join(", ", dev.ncclbench.collective.Collectives.names()) + ", all,";
            assertTrue(h.contains(listed), cmd + " names " + listed + ": " + h);
        }
    }

    @Test
    void everyHelpListsItsExitCodesOnce() {
        List<String> cmds = commands();
        assertTrue(cmds.contains("sweep") && cmds.contains("env") && cmds.contains("explain"), cmds.toString());
        for (String[] args : new String[][]{{"--help"}, {"sweep", "--help"}}) {
            // the root and sweep (which can end with any code) list the whole table, in its order
            String h = help(args);
            StringBuilder table = new StringBuilder("Exit codes:\n");
            for (ExitCode e : ExitCode.values()) {
                table.append(String.format("%5d   %s%n", e.code, e.meaning));
            }
            assertTrue(h.contains(table), String.join(" ", args) + " lists the whole table:\n" + h);
        }
        for (String c : cmds) {
            String h = help(c, "--help");
            assertEquals(1, h.split("Exit codes:", -1).length - 1, c + " --help has one exit-code list:\n" + h);
            assertTrue(h.contains("Examples:\n  "), c + " --help has examples:\n" + h);
            // every code a command lists is one of ExitCode's, so no list can disagree with the table
            String list = h.substring(h.indexOf("Exit codes:"), h.indexOf("Examples:"));
            list.lines().skip(1).filter(l -> !l.isBlank() && l.matches("\\s+\\d+\\s.*")).forEach(l -> {
                int code = Integer.parseInt(l.trim().split("\\s+")[0]);
                assertEquals(code, ExitCode.of(code).code, c + " lists exit code " + code + ", which ExitCode lacks:\n" + h);
            });
            assertTrue(list.contains("  0  "), c + " lists exit 0:\n" + h);
        }
        assertTrue(help("doctor", "--help").contains("    3   findings at the --fail-on level"), help("doctor", "--help"));
    }

    @Test
    void choicesAndDefaultsInHelpComeFromTheCode() {
        String h = help("sweep", "--help");
        assertTrue(h.contains("sum, prod, max, min, avg"), h);
        assertTrue(h.contains("auto, ring, rd, rabenseifner"), h);
        assertTrue(h.contains("Timed iterations per size (default: 20)"), h);
        assertTrue(help("fleet", "--help").contains("pairs, all, round-robin"), help("fleet", "--help"));
    }

    @Test
    void everySubcommandHasItsOwnExamples() {
        List<String> subs = new ArrayList<>();
        new CommandLine(new RootCommand(Host.of(Map.of()))).getSubcommands().forEach((name, cl) -> cl.getSubcommands().forEach((sub, x) -> {
            if (!name.equals("help") && !x.getCommandSpec().usageMessage().hidden()) {
                subs.add(name + " " + sub);
            }
        }));
        assertTrue(subs.containsAll(List.of("baseline record", "baseline list", "baseline show")), subs.toString());
        for (String s : subs) {
            String h = help((s + " --help").split(" "));
            int at = h.indexOf("Examples:\n  ");
            assertTrue(at >= 0, s + " --help has examples:\n" + h);
            assertTrue(h.substring(at).contains("ncclbench " + s + " "), s + "'s examples are its own:\n" + h);
        }
    }

    /**
     * Every example a --help shows parses as written (issue 50: preflight's example ended with the old `--json`
     * switch, which takes a FILE now): a user copies them first.
     */
    @Test
    void everyExampleParsesAsWritten() {
        List<String> paths = new ArrayList<>();
        new CommandLine(new RootCommand(Host.of(Map.of()))).getSubcommands().forEach((name, cl) -> {
            if (!name.equals("help") && !cl.getCommandSpec().usageMessage().hidden()) {
                paths.add(name);
                cl.getSubcommands().forEach((sub, x) -> paths.add(name + " " + sub));
            }
        });
        int parsed = 0;
        for (String path : paths) {
            String h = help((path + " --help").split(" "));
            for (String line : h.substring(h.indexOf("Examples:")).lines().skip(1).toList()) {
                String example = line.strip().split(" {2,}")[0];
                if (!example.startsWith("ncclbench ") || example.contains("&&") || example.contains("|")) {
                    continue;
                }
                CommandLine cl = new CommandLine(new RootCommand(Host.of(Map.of())));
                cl.setCaseInsensitiveEnumValuesAllowed(true);
                PreflightCommand.acceptFlagsAsSweepArgs(cl.getSubcommands().get("preflight"));
                String[] args = example.substring("ncclbench ".length()).split(" ");
                try {
                    cl.parseArgs(args);
                } catch (CommandLine.ParameterException e) {
                    throw new AssertionError(path + " --help shows '" + example + "', which does not parse: "
                            + e.getMessage(), e);
                }
                parsed++;
            }
        }
        assertTrue(parsed > 30, "examples parsed: " + parsed);
    }

    @Test
    void bareNcclbenchListsTheCommandsAndHelpTakesOne() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(2, Main.run(new String[0], new PrintWriter(out), new PrintWriter(err)));
        for (String c : commands()) {
            assertTrue(err.toString().contains("  " + c), "lists " + c + ":\n" + err);
        }
        assertTrue(help("help", "sweep").contains("--minbytes"), "ncclbench help sweep");
    }

    @Test
    void readmeListsEveryFlagOfEveryCommand() throws IOException {
        String readme = Files.readString(Path.of(System.getProperty("ncclbench.basedir", "."), "README.md"));
        List<String> missing = new ArrayList<>();
        new CommandLine(new RootCommand(Host.of(Map.of()))).getSubcommands().forEach((name, cl) -> {
            if (cl.getCommandSpec().usageMessage().hidden() || name.equals("help")) {
                return;
            }
            cl.getCommandSpec().options().forEach(o -> {
                String longest = o.longestName();
                if (!o.hidden() && !longest.equals("--help") && !longest.equals("--version") && !readme.contains("`" + longest + "`")
                        && !readme.contains("`" + o.shortestName() + "`") && !readme.contains(longest + " ")) {
                    missing.add(name + " " + longest);
                }
            });
        });
        assertEquals(List.of(), missing, "README.md documents every flag a user sees");
    }

    @Test
    void readmeHoldsTheSameTable() throws IOException {
        Path readme = Path.of(System.getProperty("ncclbench.basedir", "."), "README.md");
        String text = Files.readString(readme);
        assertTrue(text.contains(ExitCode.markdown()), "README.md's exit-code table must read exactly:\n" + ExitCode.markdown());
    }
}
