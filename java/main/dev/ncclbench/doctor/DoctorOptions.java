package dev.ncclbench.doctor;

import dev.ncclbench.env.Host;
import dev.ncclbench.finding.FailOn;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * What to judge and how. Exactly one source: this host (live, with {@code host}'s environment), a captured tree
 * ({@code root}), or a saved snapshot ({@code snapshot}).
 *
 * @param host     the host judged live (the command line's for the CLI): its environment is judged, its libraries
 *                 probed, and the probe child gets that environment; null: an empty one
 * @param probe    run the real libnccl.so.2 in a child (live only); null = when one is found
 * @param catalog  a fabric catalog whose site section declares link rates; null = the repository's or built-in one
 * @param ignored  rule ids to leave out
 */
public record DoctorOptions(Host host, Path root, Path snapshot, Boolean probe, Path catalog,
                            Set<String> ignored, FailOn failOn) {
    public DoctorOptions {
        host = host == null ? Host.of(Map.of()) : host;
        ignored = ignored == null ? Set.of() : Set.copyOf(ignored);
        failOn = failOn == null ? FailOn.ERROR : failOn;
    }

    /** This host, the probe on when NCCL is found, failing on errors. */
    public static DoctorOptions live(Host host) {
        return new DoctorOptions(host, null, null, null, null, Set.of(), FailOn.ERROR);
    }

    /** The environment judged live: the host's variables, as the snapshot keeps them (NCCL_ settings, HOME, ...). */
    public Map<String, String> env() {
        return host.variables();
    }

    public DoctorOptions withProbe(boolean p) {
        return new DoctorOptions(host, root, snapshot, p, catalog, ignored, failOn);
    }

    public DoctorOptions withCatalog(Path c) {
        return new DoctorOptions(host, root, snapshot, probe, c, ignored, failOn);
    }
}
