package dev.ncclbench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * `ncclbench ARGS` as a real child process: this test JVM's java and class path (no jar needed), for the tests that
 * need what only a process has: its own signals, a pipe its output goes into, its exit code.
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    public static String javaCommand() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** The real class path: surefire forks with a manifest-only jar and says the real one here. */
    public static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    /** java (small heap, serial GC: several may run at once on 2 cores) ... dev.ncclbench.cli.Main ARGS. */
    public static List<String> command(String... args) {
        List<String> c = new ArrayList<>(jvm("384m"));
        c.addAll(List.of(args));
        return c;
    }

    /**
     * {@code java -Xmx<heap> -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp <this test's class path>
     * dev.ncclbench.cli.Main}. A child lives for seconds and no test of one compares its rates: C1 alone compiles
     * what it runs at a fraction of C2's CPU, which on 2 shared cores is CPU taken from the ranks of three or four
     * children at once, and the socket backend's warm-up waits for a quiet compiler before each collective
     * (a torchrun-style 3-rank sweep took 17-22 s instead of 20-31 s at load 12). What users run is not changed.
     */
    public static List<String> jvm(String heap) {
        return List.of(javaCommand(), "-Xmx" + heap, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", classPath(),
                "dev.ncclbench.cli.Main");
    }
}
