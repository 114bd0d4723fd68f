package dev.ncclbench.backend;

import dev.ncclbench.rendezvous.ControlPlane;
import dev.ncclbench.spec.RunSpec;

import java.util.List;

/**
 * A way to move bytes between ranks: a plug-in of the sweep. Registering one (see {@link Backends})
 * loads no native code; {@link #readiness} is cheap; {@link #open} turns any failure into one
 * {@link BackendException} with a cause and a remedy.
 */
public interface Backend {

    /** "nccl" or "socket". */
    String name();

    /** Whether this backend can run here, and if not, why and what to change. Must not crash the JVM. */
    Readiness readiness(RunSpec spec);

    /**
     * Opens the ranks this process hosts, one per control plane (threads of this process or one rank per
     * process). Collective: every rank of the job calls it.
     */
    List<RankComm> open(RunSpec spec, List<ControlPlane> planes);

    /**
     * As {@link #open(RunSpec, List)}, told this process's index among the processes of its node (from
     * the launcher, or --rank when there is none), which decides the GPUs a GPU backend takes.
     */
    default List<RankComm> open(RunSpec spec, List<ControlPlane> planes, int localRank) {
        return open(spec, planes);
    }
}
