package dev.ncclbench.arch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/architecture.md names where each decision lives as {@code package/Class} (or {@code package/Class.member}), and
 * the arch tests that hold it as {@code arch/SomeTest}: each name must be a class of java/main (the arch tests: of
 * java/test), and each member a word of that class's source, so a rename or a move leaves no page pointing at nothing.
 */
class ArchitectureDocTest {
    private static final Path ROOT = Path.of(System.getProperty("ncclbench.basedir", ".")).toAbsolutePath();
    /** "cli/Main", "backend/nccl/NcclReadiness", "sweep/SweepRunner.run", "Host.once" after a named class is not. */
    private static final Pattern NAME = Pattern.compile("(?<![\\w/.])((?:[a-z]+/)+)([A-Z]\\w*)(?:\\.([a-z]\\w*))?");

    @Test
    void everyClassThePageNamesExists() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/architecture.md"));
        List<String> missing = new ArrayList<>();
        int named = 0;
        Matcher m = NAME.matcher(page);
        while (m.find()) {
            String dir = m.group(1);
            if (dir.startsWith("docs/") || dir.startsWith("scripts/") || dir.startsWith("java/")) {
                continue;
            }
            String tree = dir.startsWith("arch/") ? "java/test" : "java/main";
            Path source = ROOT.resolve(tree + "/dev/ncclbench/" + dir + m.group(2) + ".java");
            named++;
            if (!Files.isRegularFile(source)) {
                missing.add(m.group() + " (no " + ROOT.relativize(source) + ")");
            } else if (m.group(3) != null && !Pattern.compile("\\b" + m.group(3) + "\\b").matcher(Files.readString(source)).find()) {
                missing.add(m.group() + " (" + m.group(2) + " has no " + m.group(3) + ")");
            }
        }
        assertTrue(named > 40, "the page names " + named + " classes: did its form change?");
        assertEquals(List.of(), missing, "docs/architecture.md names what the code does not have");
    }
}
