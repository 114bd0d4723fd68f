package dev.ncclbench.scripts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The commands a launch script calls that a test machine has no business running for real (scontrol, logger, srun),
 * as stubs first on PATH: each writes its arguments, one line a call ("scontrol [update] [NodeName=x]"), to a log the
 * test reads, then does what its body says. The script itself is the real one.
 */
final class Stubs {
    static final Path LAUNCH = Path.of(System.getProperty("ncclbench.basedir", ".")).toAbsolutePath().resolve("scripts/launch");
    private final Path bin;
    private final Path log;

    record Run(int code, String output) {
    }

    Stubs(Path dir) throws IOException {
        this.bin = Files.createDirectories(dir.resolve("stub-bin"));
        this.log = dir.resolve("stub.log");
        Files.writeString(log, "");
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A stub {@code name} that logs its call, then runs {@code body} (bash). */
    Stubs stub(String name, String body) throws IOException {
        Path f = bin.resolve(name);
        Files.writeString(f, "#!/bin/bash\n{ printf '%s' '" + name + "'; for a in \"$@\"; do printf ' [%s]' \"$a\"; done; echo; } >> '"
                + log + "'\n" + body + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
        return this;
    }

    /** Every call the stubs saw, one a line. */
    List<String> calls() throws IOException {
        return Files.readAllLines(log, StandardCharsets.UTF_8);
    }

    /** The calls of {@code name}. */
    List<String> calls(String name) throws IOException {
        return calls().stream().filter(l -> l.startsWith(name + " ")).toList();
    }

    /** Runs {@code command} with only {@code env} (and PATH with the stubs first), in {@code cwd}. */
    Run run(Path cwd, Map<String, String> env, String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(List.of(command))).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().put("PATH", bin + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
        pb.environment().put("HOME", System.getProperty("user.home"));
        pb.environment().putAll(env);
        pb.directory(cwd.toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not end: " + out);
        }
        return new Run(p.exitValue(), out);
    }
}
