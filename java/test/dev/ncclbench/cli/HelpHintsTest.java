package dev.ncclbench.cli;

import dev.ncclbench.CliRun;
import dev.ncclbench.env.Host;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static dev.ncclbench.CliRun.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every "see ... --help" a message gives names a command that exists (issue 50: `baseline record` with no argument
 * pointed to `ncclbench record --help`, which is no command).
 */
class HelpHintsTest {
    private static final Path MAIN = Path.of(System.getProperty("ncclbench.basedir", "."), "java", "main");
    private static final Pattern HINT = Pattern.compile("\\(see '([^']*)'\\)");

    /** Every command path a user can type: "sweep", "baseline record", ... */
    static List<List<String>> paths(CommandLine cl, List<String> above) {
        List<List<String>> out = new ArrayList<>();
        cl.getSubcommands().forEach((name, sub) -> {
            if (!name.equals("help") && !sub.getCommandSpec().usageMessage().hidden()
                    && sub.getCommandName().equals(name)) { // aliases once
                List<String> path = new ArrayList<>(above);
                path.add(name);
                out.add(path);
                out.addAll(paths(sub, path));
            }
        });
        return out;
    }

    /** The hint the message gives, run: it must be a help that exists and is the command's own. */
    private static void hintWorks(CliRun r, List<String> typed) {
        assertEquals(2, r.code(), typed + ": " + r.err());
        Matcher m = HINT.matcher(r.err());
        assertTrue(m.find(), typed + ": no hint in " + r.err());
        assertEquals("ncclbench " + String.join(" ", typed) + " --help", m.group(1), r.err());
        List<String> hint = List.of(m.group(1).split(" "));
        CliRun help = cli(hint.subList(1, hint.size()));
        assertEquals(0, help.code(), m.group(1) + ": " + help.err());
        assertTrue(help.out().startsWith("Usage: ncclbench " + String.join(" ", typed)), help.out());
    }

    @Test
    void aBadFlagOnAnyCommandPointsToThatCommandsHelp() {
        List<List<String>> all = paths(new CommandLine(new RootCommand(Host.of(Map.of()))), List.of());
        assertTrue(all.contains(List.of("baseline", "record")), all.toString());
        for (List<String> path : all) {
            List<String> args = new ArrayList<>(path);
            args.add("--no-such-flag");
            hintWorks(cli(args), path);
        }
    }

    @Test
    void aMissingArgumentPointsToTheSubcommandsOwnHelp() {
        CliRun r = cli("baseline", "record");
        assertEquals("ncclbench: Missing required parameter: 'RUN.json' (see 'ncclbench baseline record --help')",
                r.err().strip());
        hintWorks(r, List.of("baseline", "record"));
        CliRun bare = cli("baseline");
        assertEquals(2, bare.code());
        assertTrue(bare.err().contains("(see 'ncclbench baseline --help')"), bare.err());
    }

    /** The hints written in the code (string pieces joined as the compiler joins them) name real commands. */
    @Test
    void everyHintInTheCodeNamesACommand() throws IOException {
        List<List<String>> commands = paths(new CommandLine(new RootCommand(Host.of(Map.of()))), List.of());
        Pattern named = Pattern.compile("see '?ncclbench((?: [a-z][a-z-]*)+)");
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String joined = Files.readString(f).replaceAll("\"\\s*\\+\\s*\"", "");
                Matcher m = named.matcher(joined);
                while (m.find()) {
                    List<String> words = List.of(m.group(1).strip().split(" "));
                    found.add(f.getFileName() + ": " + words);
                    assertTrue(commands.contains(words), f + " says 'see ncclbench " + m.group(1).strip()
                            + "', which is no command");
                }
            }
        }
        assertTrue(found.size() >= 2, "the scan finds the hints there are: " + found);
    }
}
