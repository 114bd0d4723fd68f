package dev.ncclbench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * ncclbench in a real child JVM started in a folder of the test's choosing, as a user runs it from a CI workspace or
 * their home: the working directory is the child's own, never this JVM's. {@code install} stands for the checkout or
 * bundle the launcher runs (-Dncclbench.basedir, as scripts/ncclbench's checkout is found).
 */
public final class ChildCli {
    private ChildCli() {
    }

    /** The child's exit code, stdout and stderr. */
    public static CliRun run(Path install, Path cwd, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-D" + InstallDir.PROPERTY + "=" + install, "-cp", System.getProperty("java.class.path"),
                "dev.ncclbench.cli.Main"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(cwd.toFile()).start();
        p.getOutputStream().close();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("ncclbench " + String.join(" ", args) + " did not finish in 120 s");
        }
        return new CliRun(p.exitValue(), out, err.join());
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
