package dev.ncclbench.doctor;

import dev.ncclbench.finding.FailOn;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * What to judge and how. Exactly one source: this host (live, with {@code env} as its environment), a captured
 * tree ({@code root}), or a saved snapshot ({@code snapshot}).
 *
 * @param env      the environment judged live (the process's own for the CLI); the probe child gets it too
 * @param probe    run the real libnccl.so.2 in a child (live only); null = when one is found
 * @param catalog  a fabric catalog whose site section declares link rates; null = the repository's or built-in one
 * @param ignored  rule ids to leave out
 */
public record DoctorOptions(Map<String, String> env, Path root, Path snapshot, Boolean probe, Path catalog,
                            Set<String> ignored, FailOn failOn) {
    public DoctorOptions {
        env = env == null ? Map.of() : Map.copyOf(env);
        ignored = ignored == null ? Set.of() : Set.copyOf(ignored);
        failOn = failOn == null ? FailOn.ERROR : failOn;
    }

    /**
     * This host with {@code env} (the process's, read by the command line), the probe on when NCCL is found, failing
     * on errors.
     */
    public static DoctorOptions live(Map<String, String> env) {
        return new DoctorOptions(env, null, null, null, null, Set.of(), FailOn.ERROR);
    }

    public DoctorOptions withEnv(Map<String, String> e) {
        return new DoctorOptions(e, root, snapshot, probe, catalog, ignored, failOn);
    }

    public DoctorOptions withProbe(boolean p) {
        return new DoctorOptions(env, root, snapshot, p, catalog, ignored, failOn);
    }

    public DoctorOptions withCatalog(Path c) {
        return new DoctorOptions(env, root, snapshot, probe, c, ignored, failOn);
    }
}
