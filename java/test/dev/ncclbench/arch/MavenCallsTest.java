package dev.ncclbench.arch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every Maven a script of ours starts writes plain lines: in batch mode (-B: no download progress, no colour), and with
 * .mvn/jvm.config's -Djansi.noreset=true, without which Maven 3.8's jansi writes ESC[0m into a pipe even then. The
 * count of calls without -B stays at zero; LauncherBuildTest proves the bytes.
 */
class MavenCallsTest {
    private static final Path ROOT = Path.of(System.getProperty("ncclbench.basedir", ".")).toAbsolutePath();
    /** mvn as a command: at a line's start or after ( ! && || ; then do exec, once quoted text is blanked out. */
    private static final Pattern CALL = Pattern.compile("(?:^|[(!;&|]|\\bthen|\\bdo|\\bexec)\\s*mvn\\s([^;|&)]*)");
    private static final Pattern QUOTED = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"|'[^']*'");

    private static List<Path> scripts() throws IOException {
        List<Path> out = new ArrayList<>();
        for (String dir : List.of("scripts", ".ci")) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(dir))) {
                files.filter(Files::isRegularFile).filter(MavenCallsTest::isShell).sorted().forEach(out::add);
            }
        }
        return out;
    }

    private static boolean isShell(Path p) {
        String name = p.getFileName().toString();
        if (name.endsWith(".sh")) {
            return true;
        }
        try {
            return !name.contains(".") && Files.readString(p).startsWith("#!/usr/bin/env bash");
        } catch (IOException | java.io.UncheckedIOException e) {
            return false; // not text
        }
    }

    @Test
    void everyMavenCallOfOurScriptsIsInBatchMode() throws IOException {
        List<String> calls = new ArrayList<>();
        List<String> unbatched = new ArrayList<>();
        for (Path script : scripts()) {
            List<String> lines = Files.readAllLines(script);
            for (int i = 0; i < lines.size(); i++) {
                String code = lines.get(i).strip();
                if (code.startsWith("#")) {
                    continue;
                }
                Matcher m = CALL.matcher(QUOTED.matcher(code).replaceAll("\"\""));
                while (m.find()) {
                    String where = ROOT.relativize(script) + ":" + (i + 1);
                    calls.add(where);
                    if (!List.of(m.group(1).trim().split("\\s+")).stream().anyMatch(a -> a.equals("-B")
                            || a.equals("--batch-mode"))) {
                        unbatched.add(where + ": " + code);
                    }
                }
            }
        }
        // the launcher's build and the test command are among them: the scan sees what it is meant to
        assertTrue(calls.stream().anyMatch(c -> c.startsWith("scripts/ncclbench:")), calls.toString());
        assertTrue(calls.stream().anyMatch(c -> c.startsWith("scripts/test:")), calls.toString());
        assertEquals(List.of(), unbatched, "mvn without -B (progress bars and colour in logs)");
    }

    @Test
    void mavenKeepsItsResetCodesToItself() throws IOException {
        List<String> options = List.of(Files.readString(ROOT.resolve(".mvn/jvm.config")).trim().split("\\s+"));
        assertTrue(options.contains("-Djansi.noreset=true"), options.toString());
    }
}
