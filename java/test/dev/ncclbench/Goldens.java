package dev.ncclbench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden files under java/test-resources. One switch rewrites them all after an intended change:
 * {@code -Dgolden.update=true} (README, "Tests and benchmarks"); review the diff before committing.
 */
public final class Goldens {
    private Goldens() {
    }

    /** Whether this run rewrites goldens instead of only comparing against them. */
    public static boolean updating() {
        return Boolean.getBoolean("golden.update");
    }

    /** java/test-resources, wherever the tests run from. */
    public static Path resources() {
        return Path.of(System.getProperty("ncclbench.basedir", "."), "java", "test-resources");
    }

    /** The golden at {@code relative}, rewritten with {@code actual} first when {@link #updating()}. */
    public static String expect(String relative, String actual) throws IOException {
        Path file = resources().resolve(relative);
        if (updating()) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, actual, StandardCharsets.UTF_8);
        }
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
