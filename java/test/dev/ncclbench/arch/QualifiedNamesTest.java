package dev.ncclbench.arch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A project class is named by its import, not spelled out inside code ("dev.ncclbench.output.Json.mapper()"): a spelled
 * out name hides a dependency from the imports a reader scans. A class of the root package counts too. Allowed only in
 * a string naming a class for another process; two classes that would clash share no simple name (gate's
 * {@code Statistics} beside choices' {@code Comparison}).
 */
class QualifiedNamesTest {
    private static final Path MAIN = Path.of(System.getProperty("ncclbench.basedir", "."), "java/main");
    private static final Pattern QUALIFIED = Pattern.compile("[^.a-z\"]dev\\.ncclbench\\.([a-z]+\\.)*[A-Z]");
    private static final Pattern NOT_CODE = Pattern.compile("^\\s*(import|package|\\*|//|/\\*)|\\{@link|@see");

    @Test
    void projectClassesAreImportedNotSpelledOut() throws IOException {
        Map<String, Integer> found = new TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(f);
                int n = (int) lines.stream().filter(l -> QUALIFIED.matcher(l).find() && !NOT_CODE.matcher(l).find()).count();
                if (n > 0) {
                    found.put(MAIN.resolve("dev/ncclbench").relativize(f).toString(), n);
                }
            }
        }
        assertEquals(Map.of(), found, "import the class (where two classes share a simple name, rename one)");
    }
}
