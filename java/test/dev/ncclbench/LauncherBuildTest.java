package dev.ncclbench;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What a newcomer sees before the first sweep: scripts/ncclbench builds the jar with one line of its own, and
 * nothing of Maven's reaches a pipe as ANSI codes (Maven 3.8's jansi writes ESC[0m even with -B and -q unless
 * .mvn/jvm.config says -Djansi.noreset=true). The real Maven, on a checkout the size of a pom: seconds, not a build.
 */
class LauncherBuildTest {
    private static final Path ROOT = Path.of(System.getProperty("ncclbench.basedir", ".")).toAbsolutePath();

    @BeforeAll
    static void needsMaven() {
        assumeTrue(onPath("mvn"), "no mvn on PATH");
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /** Exit code and everything written, stdout and stderr both into one pipe (no terminal). */
    private record Run(int code, String text, byte[] bytes) {
    }

    private static Run run(Path dir, List<String> command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().remove("NCCLBENCH_JAR");
        pb.environment().remove("MAVEN_OPTS");
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "still running: " + command);
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), out);
    }

    private static void assertPlain(Run r) {
        for (byte b : r.bytes()) {
            assertFalse(b == 0x1b, "an ESC byte in: " + r.text().replace("\u001b", "ESC"));
        }
    }

    /** A copy of the launcher and the Maven settings of this checkout, with {@code pom} as its pom.xml. */
    private static Path checkout(Path dir, String pom) throws IOException {
        Files.createDirectories(dir.resolve("scripts"));
        Files.copy(ROOT.resolve("scripts/ncclbench"), dir.resolve("scripts/ncclbench"));
        Files.createDirectories(dir.resolve(".mvn"));
        Files.copy(ROOT.resolve(".mvn/jvm.config"), dir.resolve(".mvn/jvm.config"));
        Files.writeString(dir.resolve("pom.xml"), pom);
        return dir;
    }

    @Test
    void mavenInThisCheckoutWritesNoAnsiIntoAPipe() throws Exception {
        // what scripts/test and .ci/run run (mvn -B package) starts the same way as this
        Run r = run(ROOT, List.of("mvn", "-B", "-q", "-o", "validate"));
        assertEquals(0, r.code(), r.text());
        assertPlain(r);
    }

    /**
     * A build of a minute or two names its steps as they come, on its one line (a first run printed one line during a
     * 73 s build and looked hung); the tests are not compiled (a third of the build); and the jar is told its checkout,
     * so that one run with NCCLBENCH_JAR from elsewhere still finds the checkout's deps/nccl (env and probe missed it).
     * A project the size of one class, built by the real Maven.
     */
    @Test
    void theBuildNamesItsStepsAndTheJarIsToldItsCheckout(@TempDir Path dir) throws Exception {
        Path c = checkout(dir.resolve("clone"), "<project><modelVersion>4.0.0</modelVersion><groupId>t</groupId>"
                + "<artifactId>t</artifactId><version>1</version>"
                + "<properties><maven.compiler.release>17</maven.compiler.release></properties>"
                + "<build><finalName>ncclbench</finalName><plugins>"
                + "<plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>"
                + "<plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.2</version></plugin>"
                + "<plugin><artifactId>maven-jar-plugin</artifactId><version>2.4</version><configuration><archive><manifest>"
                + "<mainClass>Hello</mainClass></manifest></archive></configuration></plugin>"
                + "</plugins></build></project>\n");
        Files.createDirectories(c.resolve("src/main/java"));
        Files.writeString(c.resolve("src/main/java/Hello.java"), "public class Hello { public static void main(String[] a)"
                + " { System.out.println(\"basedir=\" + System.getProperty(\"ncclbench.basedir\") + \" args=\""
                + " + String.join(\",\", a)); } }\n");
        Files.createDirectories(c.resolve("src/test/java"));
        Files.writeString(c.resolve("src/test/java/Broken.java"), "this does not compile\n");
        Run r = run(dir, List.of("bash", c.resolve("scripts/ncclbench").toString(), "env"));
        assertEquals(0, r.code(), r.text());
        assertPlain(r);
        List<String> lines = r.text().lines().toList();
        assertTrue(lines.get(0).matches("ncclbench: building target/ncclbench.jar \\(once, until the sources change;"
                + " Maven's output in target/build.log\\) \\.\\.\\. compiling Java \\.\\.\\. built in \\d+ s"), r.text());
        assertEquals("basedir=" + c + " args=env", lines.get(lines.size() - 1), r.text());
        Path elsewhere = Files.copy(c.resolve("target/ncclbench.jar"), dir.resolve("ncclbench.jar"));
        ProcessBuilder withJar = new ProcessBuilder("bash", c.resolve("scripts/ncclbench").toString(), "probe")
                .directory(dir.toFile()).redirectErrorStream(true);
        withJar.environment().put("NCCLBENCH_JAR", elsewhere.toString());
        Process p = withJar.start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals("basedir=" + c + " args=probe", said.strip(), "the checkout, though the jar lies elsewhere");
    }

    @Test
    void aFailedBuildIsOurLineThenMavensWords(@TempDir Path dir) throws Exception {
        Path c = checkout(dir, "<project><modelVersion>4.0.0</modelVersion></project>\n");
        Run r = run(c, List.of("bash", c.resolve("scripts/ncclbench").toString(), "--version"));
        assertEquals(1, r.code(), r.text());
        assertPlain(r);
        List<String> lines = r.text().lines().toList();
        assertTrue(lines.get(0).startsWith("ncclbench: building target/ncclbench.jar (once, until the sources change;"
                + " Maven's output in target/build.log) ... failed after "), r.text());
        assertTrue(r.text().contains("[ERROR]"), r.text());
        assertEquals("ncclbench: the build failed (see above, also in " + c.resolve("target/build.log") + ")",
                lines.get(lines.size() - 1), r.text());
    }

    @Test
    void aBuildThatMakesNoJarSaysSoInsteadOfRunningNothing(@TempDir Path dir) throws Exception {
        Path c = checkout(dir, "<project><modelVersion>4.0.0</modelVersion><groupId>t</groupId><artifactId>t</artifactId>"
                + "<version>1</version><packaging>pom</packaging></project>\n");
        Run r = run(c, List.of("bash", c.resolve("scripts/ncclbench").toString(), "--version"));
        assertEquals(1, r.code(), r.text());
        assertPlain(r);
        assertEquals(List.of("ncclbench: building target/ncclbench.jar (once, until the sources change; Maven's output in"
                + " target/build.log) ... failed: mvn package ran but made no " + c.resolve("target/ncclbench.jar")
                + " (see " + c.resolve("target/build.log") + ")"), r.text().lines().toList());
    }
}
