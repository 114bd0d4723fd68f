package dev.ncclbench.results;

import dev.ncclbench.ExitCode;
import dev.ncclbench.NcclbenchException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Where a run's files go: one folder per run under --out, named by rank 0, holding the JSON and the NCCL logs. */
public final class RunFolder {
    private RunFolder() {
    }

    /** {@code <UTC time>-<backend>-<pid>}: sorts by time, and two runs of one second never share a folder. */
    public static String name(String backend, Instant now, long pid) {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT).withZone(ZoneOffset.UTC).format(now);
        return stamp + "-" + backend + "-" + pid;
    }

    /** --json when given, else result.json in the run's folder. */
    public static Path jsonFile(Path json, Path runFolder) {
        return json != null ? json : runFolder.resolve("result.json");
    }

    /**
     * A folder of this process's own under --out, named as {@link #name} names a run's ({@code what}: "preflight"),
     * created: --out is checked first ({@link OutputPaths#checkOutDir}), so a bad one is one sentence, exit 2.
     */
    public static Path createUnder(Path out, String what) {
        OutputPaths.checkOutDir(out);
        Path dir = out.resolve(name(what, Instant.now(), ProcessHandle.current().pid()));
        create(dir);
        return dir;
    }

    public static void create(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new NcclbenchException(ExitCode.USAGE, "cannot create the output folder " + dir + ": " + e.getMessage());
        }
    }
}
