package dev.ncclbench.labs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Runs a two-node lab script (scripts/lab/*.sh) from a test: the jar is not built yet while tests run, so the lab
 * gets a launcher for this JVM's class path (NCCLBENCH_CMD), namespaces named PREFIX0 and PREFIX1, and --keep DIR
 * for its work folder. NCCL_SOCKET_IFNAME is removed: the labs set it themselves where they mean to.
 */
public final class LabScript {
    private static final Path BASE = Path.of(System.getProperty("ncclbench.basedir", ".")).toAbsolutePath();

    private LabScript() {
    }

    public record Result(int code, String output) {
    }

    /** Whether a tool runs here (e.g. "tc", "-V"): the labs skip, with the reason, where it does not. */
    public static boolean available(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @param script under scripts/lab/, e.g. "preflight.sh"; @param prefix the namespaces' prefix, with the pid */
    public static Result run(Path dir, String script, String prefix) throws IOException, InterruptedException {
        Path launcher = dir.resolve("ncclbench");
        Files.writeString(launcher, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
                + "' -XX:TieredStopAtLevel=1 -cp '" + System.getProperty("java.class.path") + "' dev.ncclbench.cli.Main \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder pb = new ProcessBuilder("bash", BASE.resolve("scripts/lab").resolve(script).toString(),
                "--keep", dir.resolve("kept").toString()).redirectErrorStream(true);
        pb.environment().put("NCCLBENCH_CMD", launcher.toString());
        pb.environment().put("LAB_PREFIX", prefix);
        pb.environment().remove("NCCL_SOCKET_IFNAME");
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes());
        int code = p.waitFor();
        System.out.println(out);
        return new Result(code, out);
    }
}
